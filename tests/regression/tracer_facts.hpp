#pragma once
/// The facts passive tracers (physics.tracers) hold in both models, on the backend a test
/// executable instantiates them for (INSTANTIATE_TEST_SUITE_P(…, TracerFactsTest, …) with
/// TracerFactsTest::on(backend)): their mass is conserved to round-off (and the flow statistics
/// reduce it as the state sums it), a uniform mixing ratio stays uniform in a moving flow, the dry
/// variables are bit for bit those of the run without tracers, and every granularity and mode the
/// backend runs computes the same tracers; with a diffusivity (physics.diffusivity) too, where a
/// uniform mixing ratio stays uniform and a bump spreads, its mass conserved. Include it in one
/// source file of an executable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/time/time_stepping.hpp"
#include "tests/support/recorded_value.hpp"
#include "tests/support/small_case.hpp"

namespace simapp::testing {

/// The model's dimension and the backend it runs on.
struct TracerRun {
  int dims;
  Backend backend;
};

constexpr int tracer_nx = 24, tracer_ny = 4, tracer_nz = 12;

/// Diffusion with κ ≠ ν: κ dt / dx² ≈ 0.08 on the 833 m cells of tracer_case, a visible spreading
/// in a few steps, below the diffusive bound of dt (the Courant number still sets it).
inline constexpr Dissipation tracer_diffusion{5000.0, numerics::hyperviscosity_beta, 20000.0};

/// `name` on nx × nz cells (the 3-D model: nx × ny × nz, cells as wide along y as along x) for
/// 8.5 dt, the last step shortened, with `tracers` started as `init` and the dissipation `physics`.
inline RunSpec tracer_case(int dims, CaseName name, const std::vector<std::string>& tracers, TracerInit init,
                           Granularity granularity = Granularity::stage, const Dissipation& physics = {}) {
  RunSpec spec = small_case(name, tracer_nx, tracer_nz, 1.0);
  spec.physics = physics;
  if (dims == 3) {
    spec.grid.ny = tracer_ny;
    spec.grid.ylen = spec.grid.xlen / tracer_nx * tracer_ny;
  }
  spec.grid.tracers = tracers;
  spec.grid.tracer_init = init;
  spec.execution.granularity = granularity;
  spec.time.sim_time =
      8.5 * TimeStepping(1.0, horizontal_spacing(spec.grid), spec.grid.zlen / tracer_nz, spec.time.cfl).dt();
  return spec;
}

inline std::size_t cells_of(const RunSpec& spec) { return std::size_t{tracer_nx} * spec.grid.ny * tracer_nz; }

inline int dry_variables(int dims) { return dims == 3 ? ModelVariables<3>::count : ModelVariables<2>::count; }

/// Variable v's values in a gathered state [var][cells].
inline std::vector<double> variable(const std::vector<double>& state, const RunSpec& spec, int v) {
  const std::size_t cells = cells_of(spec);
  return {state.begin() + static_cast<std::ptrdiff_t>(v * cells),
          state.begin() + static_cast<std::ptrdiff_t>((v + 1) * cells)};
}

inline double sum(const std::vector<double>& values) {
  long double total = 0.0L;
  for (const double value : values) total += value;
  return static_cast<double>(total);
}

class TracerFactsTest : public ::testing::TestWithParam<TracerRun> {
 public:
  /// Both models on `backend`, named 2d and 3d.
  static auto on(Backend backend) { return ::testing::Values(TracerRun{2, backend}, TracerRun{3, backend}); }
  static std::string name(const ::testing::TestParamInfo<TracerRun>& run) {
    return std::to_string(run.param.dims) + "d";
  }

 protected:
  void SetUp() override {
    if (backend() == Backend::cuda && device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
  int dims() const { return GetParam().dims; }
  Backend backend() const { return GetParam().backend; }

  std::vector<double> initial_state(const RunSpec& spec) const {
    SerialSimulation simulation(spec, backend(), ExecutionMode::eager);
    return simulation->gathered_state();
  }
  std::vector<double> final_state(const RunSpec& spec, ExecutionMode mode = ExecutionMode::eager) const {
    return testing::final_state(spec, backend(), mode);
  }
};

TEST_P(TracerFactsTest, DryVariablesAreBitForBitThoseOfTheRunWithout) {
  for (const Granularity granularity : {Granularity::stage, Granularity::pass, Granularity::fused, Granularity::fine}) {
    for (const CaseName name : {CaseName::thermal, CaseName::injection}) {
      const RunSpec with = tracer_case(dims(), name, {"smoke", "dye"}, TracerInit::bump, granularity);
      RunSpec without = with;
      without.grid.tracers.clear();
      const std::vector<double> dry = final_state(without), with_tracers = final_state(with);
      ASSERT_EQ(with_tracers.size(), dry.size() + 2 * cells_of(with));
      EXPECT_TRUE(
          bitwise_equal({with_tracers.begin(), with_tracers.begin() + static_cast<std::ptrdiff_t>(dry.size())}, dry))
          << to_string(name) << ", granularity " << to_string(granularity);
    }
  }
}

TEST_P(TracerFactsTest, EveryGranularityAndModeComputesTheSameTracers) {
  for (const Dissipation& physics : {Dissipation{}, tracer_diffusion}) {
    const char* const diffusion = physics.diffusivity > 0.0 ? ", with diffusion" : "";
    for (const CaseName name : {CaseName::thermal, CaseName::injection}) {
      // Injection has no bump: its tracer starts uniform.
      const TracerInit init = name == CaseName::thermal ? TracerInit::bump : TracerInit::uniform;
      const RunSpec reference_spec = tracer_case(dims(), name, {"smoke"}, init, Granularity::stage, physics);
      const std::vector<double> reference = final_state(reference_spec);
      const std::vector<double> smoke = variable(reference, reference_spec, dry_variables(dims()));
      const std::vector<double> start = variable(initial_state(reference_spec), reference_spec, dry_variables(dims()));
      EXPECT_FALSE(bitwise_equal(smoke, start)) << "the tracer moved";
      for (const Granularity granularity : {Granularity::pass, Granularity::fused, Granularity::fine})
        EXPECT_TRUE(
            bitwise_equal(final_state(tracer_case(dims(), name, {"smoke"}, init, granularity, physics)), reference))
            << to_string(name) << ", granularity " << to_string(granularity) << diffusion;
      // Every mode the backend runs; persistent (CUDA) with a barrier a pass (thermal: the pass
      // tiles carry the tracer) and a barrier a stage (injection's inflow: the tracers' cells in
      // each stage, their ghost cells made by rule); persistent_cluster where the pass tiles serve.
      for (const ExecutionMode mode : timed_modes) {
        if (mode == ExecutionMode::eager || !testing::mode_can_run(mode, reference_spec, backend())) continue;
        EXPECT_TRUE(bitwise_equal(final_state(reference_spec, mode), reference))
            << to_string(name) << ", mode " << to_string(mode) << diffusion;
      }
    }
  }
}

TEST_P(TracerFactsTest, TracerMassIsConservedToRoundOff) {
  // The bump's background is 0: the tracer's mass is Σ ρ_x′ dV.
  const RunSpec spec = tracer_case(dims(), CaseName::thermal, {"smoke"}, TracerInit::bump);
  const double before = sum(variable(initial_state(spec), spec, dry_variables(dims())));
  const double after = sum(variable(final_state(spec), spec, dry_variables(dims())));
  ASSERT_GT(before, 0.0) << "the bump holds tracer";
  RecordProperty("relative_mass_change", testing::scientific((after - before) / before));
  EXPECT_LT(std::abs(after - before) / before, 1e-14) << before << " -> " << after;
}

TEST_P(TracerFactsTest, TheStatisticsHoldEachTracersMassAsTheStateSumsIt) {
  // The bump's background is 0: a tracer's mass is Σ ρ_x′ dV.
  const RunSpec spec = tracer_case(dims(), CaseName::thermal, {"smoke", "dye"}, TracerInit::bump);
  SerialSimulation simulation(spec, backend(), ExecutionMode::eager);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const std::vector<double> state = simulation->gathered_state();
  const Diagnostics reduced = simulation->diagnostics();
  ASSERT_EQ(reduced.tracer_mass.size(), 2u);
  const double volume =
      spec.grid.xlen / tracer_nx * spec.grid.zlen / tracer_nz * (dims() == 3 ? spec.grid.ylen / tracer_ny : 1.0);
  for (int t = 0; t < 2; ++t) {
    const double summed = sum(variable(state, spec, dry_variables(dims()) + t)) * volume;
    ASSERT_GT(summed, 0.0) << "the bump holds tracer";
    EXPECT_NEAR(reduced.tracer_mass[static_cast<std::size_t>(t)], summed, 1e-13 * summed) << "tracer " << t;
  }
}

TEST_P(TracerFactsTest, UniformMixingRatioStaysUniformInAMovingFlow) {
  for (const Dissipation& physics : {Dissipation{}, tracer_diffusion}) {
    const std::string diffusion = physics.diffusivity > 0.0 ? "_with_diffusion" : "";
    for (const CaseName name : {CaseName::thermal, CaseName::injection}) {
      const RunSpec spec = tracer_case(dims(), name, {"air"}, TracerInit::uniform, Granularity::stage, physics);
      const std::vector<double> state = final_state(spec);
      // ρ̄_x = ρ̄: q − 1 = (ρ_x′ − ρ′) / ρ, with ρ of order 1 kg m⁻³.
      const std::vector<double> density = variable(state, spec, 0);
      const std::vector<double> tracer = variable(state, spec, dry_variables(dims()));
      double largest_density = 0.0, largest_difference = 0.0;
      for (std::size_t c = 0; c < density.size(); ++c) {
        largest_density = std::max(largest_density, std::abs(density[c]));
        largest_difference = std::max(largest_difference, std::abs(tracer[c] - density[c]));
      }
      EXPECT_GT(largest_density, 1e-6) << to_string(name) << diffusion << ": the flow moves and compresses";
      EXPECT_LT(largest_difference, 1e-14) << to_string(name) << diffusion;
      RecordProperty(std::string(to_string(name)) + diffusion + "_largest_difference",
                     testing::scientific(largest_difference));
    }
  }
}

TEST_P(TracerFactsTest, WithDiffusionABumpSpreadsAndKeepsItsMass) {
  // The bump's background is 0: the tracer's mass is Σ ρ_x′ dV, its peak the largest ρ_x′.
  const RunSpec advected = tracer_case(dims(), CaseName::thermal, {"smoke"}, TracerInit::bump);
  const RunSpec diffused =
      tracer_case(dims(), CaseName::thermal, {"smoke"}, TracerInit::bump, Granularity::stage, tracer_diffusion);
  const std::vector<double> start = variable(initial_state(diffused), diffused, dry_variables(dims()));
  const std::vector<double> without = variable(final_state(advected), advected, dry_variables(dims()));
  const std::vector<double> with = variable(final_state(diffused), diffused, dry_variables(dims()));
  const auto peak = [](const std::vector<double>& values) { return *std::ranges::max_element(values); };
  EXPECT_LT(peak(with), peak(start)) << "the bump's peak falls";
  EXPECT_LT(peak(with), peak(without) - 0.01 * peak(start)) << "by more than advection makes it fall";
  const double before = sum(start), after = sum(with);
  RecordProperty("relative_mass_change_with_diffusion", testing::scientific((after - before) / before));
  EXPECT_LT(std::abs(after - before) / before, 1e-14) << before << " -> " << after;
}

}  // namespace simapp::testing
