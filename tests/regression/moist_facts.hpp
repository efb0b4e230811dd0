#pragma once
/// Water (physics.microphysics: kessler) in both models, on the backend a test executable
/// instantiates them for (INSTANTIATE_TEST_SUITE_P(…, MoistFactsTest, MoistFactsTest::on(backend),
/// MoistFactsTest::name)): the facts docs/model.md, "Moisture", lists for a correct
/// implementation. Dry mass is conserved to round-off; the water changes only by the clipped mass;
/// with no water anywhere a run equals the dry run bit for bit; moist_thermal starts as thermal
/// wherever it has no vapour; it stays mirror-symmetric; every granularity and mode the backend
/// runs (persistent on CUDA) computes the same state, with more tracers than a pass tile carries
/// too. Include it in one source file of an executable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/time/time_stepping.hpp"
#include "tests/support/recorded_value.hpp"
#include "tests/support/small_case.hpp"

namespace simapp::testing::moist {

constexpr int nx = 40, ny = 4, nz = 20;

/// `name` on nx × nz cells (3-D: nx × ny × nz, cells as wide along y as along x) of the default
/// domain with warm-rain microphysics, for `seconds`.
inline RunSpec moist_case(int dims, CaseName name, double seconds, Granularity granularity = Granularity::stage) {
  RunSpec spec = small_case(name, nx, nz, seconds);
  if (dims == 3) {
    spec.grid.ny = ny;
    spec.grid.ylen = spec.grid.xlen / nx * ny;
  }
  spec.grid.microphysics = Microphysics::kessler;
  spec.execution.granularity = granularity;
  return spec;
}

inline std::size_t cells_of(const RunSpec& spec) { return std::size_t{nx} * spec.grid.ny * nz; }
inline int dry_variables(int dims) { return dims == 3 ? ModelVariables<3>::count : ModelVariables<2>::count; }
inline double cell_volume(const RunSpec& spec) {
  return spec.grid.xlen / nx * spec.grid.zlen / nz * (spec.grid.ny > 1 ? spec.grid.ylen / ny : 1.0);
}
inline double column_area(const RunSpec& spec) {
  return spec.grid.xlen / nx * (spec.grid.ny > 1 ? spec.grid.ylen / ny : 1.0);
}

/// Variable v of a gathered state [var][cells].
inline std::vector<double> variable(const std::vector<double>& state, const RunSpec& spec, int v) {
  const auto cells = static_cast<std::ptrdiff_t>(cells_of(spec));
  return {state.begin() + v * cells, state.begin() + (v + 1) * cells};
}

inline double sum(const std::vector<double>& values) {
  long double total = 0.0L;
  for (const double value : values) total += value;
  return static_cast<double>(total);
}

/// The water of a run's end: Σ(ρ_v + ρ_c + ρ_r) dV (no water background), the precipitation on
/// the ground and the clipped water (kg, a metre of y in 2-D), and Σρ_d dV.
struct WaterBudget {
  double airborne = 0.0, precipitated = 0.0, clipped = 0.0, dry_mass = 0.0;
};

/// Σρ_d dV = Σ(ρ̄ + ρ′ − ρ_v − ρ_c − ρ_r) dV less the background's Σρ̄ dV, which no step changes.
inline WaterBudget budget_of(const RunSpec& spec, const std::vector<double>& state,
                             const std::vector<double>& surface) {
  const int dims = spec.grid.ny > 1 ? 3 : 2, water = dry_variables(dims);
  WaterBudget budget;
  const double dv = cell_volume(spec), da = column_area(spec);
  for (int t = 0; t < water_tracers; ++t) budget.airborne += sum(variable(state, spec, water + t)) * dv;
  budget.dry_mass = (sum(variable(state, spec, 0)) * dv) - budget.airborne;
  const std::size_t columns = surface.size() / 3;
  budget.precipitated = sum({surface.begin(), surface.begin() + static_cast<std::ptrdiff_t>(columns)}) * da;
  budget.clipped = sum({surface.begin() + static_cast<std::ptrdiff_t>(2 * columns), surface.end()}) * da;
  return budget;
}

struct MoistRun {
  std::vector<double> initial, final, surface;
  RunResult result;  ///< the run's own diagnostics: d_mass, d_water, the clipped water
};

/// The model's dimension and the backend it runs on.
struct MoistModel {
  int dims;
  Backend backend;
};

inline MoistRun run_of(const RunSpec& spec, Backend backend, ExecutionMode mode = ExecutionMode::eager) {
  SerialSimulation simulation(spec, backend, mode);
  MoistRun run;
  run.initial = simulation->gathered_state();
  run.result = run_to_end(*simulation, 0, [](const ProgressReport&) {});
  run.final = simulation->gathered_state();
  run.surface = simulation->surface_water_on_host();
  return run;
}

class MoistFactsTest : public ::testing::TestWithParam<MoistModel> {
 public:
  /// Both models on `backend`, named 2d and 3d.
  static auto on(Backend backend) { return ::testing::Values(MoistModel{2, backend}, MoistModel{3, backend}); }
  static std::string name(const ::testing::TestParamInfo<MoistModel>& model) {
    return std::to_string(model.param.dims) + "d";
  }

 protected:
  void SetUp() override {
    if (backend() == Backend::cuda && device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
  int dims() const { return GetParam().dims; }
  Backend backend() const { return GetParam().backend; }
  MoistRun run_of(const RunSpec& spec, ExecutionMode mode = ExecutionMode::eager) const {
    return moist::run_of(spec, backend(), mode);
  }
};

TEST_P(MoistFactsTest, DryMassIsConservedAndTheWaterChangesOnlyByTheClippedMass) {
  // 300 s: cloud at once, rain within a few steps (docs/model.md, "Moisture").
  const RunSpec spec = moist_case(dims(), CaseName::moist_thermal, 300.0);
  const MoistRun run = run_of(spec);
  const WaterBudget before = budget_of(spec, run.initial, std::vector<double>(3 * nx * spec.grid.ny, 0.0));
  const WaterBudget after = budget_of(spec, run.final, run.surface);
  const double cloud = sum(variable(run.final, spec, dry_variables(dims()) + 1));
  const double rain = sum(variable(run.final, spec, dry_variables(dims()) + 2));
  ASSERT_GT(before.airborne, 0.0);
  EXPECT_GT(cloud, 0.0) << "the supersaturated bubble makes cloud";
  EXPECT_GT(rain, 0.0) << "and rain";
  // The dry mass perturbation sums to ~0; its change is measured against the whole dry mass of a
  // column of the background, ~1e4 kg m⁻² a metre of y.
  const double background_mass = 1.0e4 * spec.grid.xlen * (dims() == 3 ? spec.grid.ylen : 1.0);
  RecordProperty("relative_dry_mass_change", testing::scientific((after.dry_mass - before.dry_mass) / background_mass));
  EXPECT_LT(std::abs(after.dry_mass - before.dry_mass) / background_mass, 1e-14);
  const double water_change = after.airborne + after.precipitated - before.airborne;
  RecordProperty("d_water", testing::scientific(water_change / before.airborne));
  RecordProperty("clipped_over_w0", testing::scientific(after.clipped / before.airborne));
  EXPECT_NEAR(water_change, after.clipped, 1e-12 * before.airborne);
}

TEST_P(MoistFactsTest, TheRunReportsTheDryMassChangeAndTheWaterChangeAsTheGatheredStateHasThem) {
  const RunSpec spec = moist_case(dims(), CaseName::moist_thermal, 300.0);
  const MoistRun run = run_of(spec);
  const WaterBudget before = budget_of(spec, run.initial, std::vector<double>(3 * nx * spec.grid.ny, 0.0));
  const WaterBudget after = budget_of(spec, run.final, run.surface);
  const RunResult& result = run.result;
  ASSERT_TRUE(result.initial.water && result.final.water && result.change.water);
  // The dry mass is conserved to round-off; the total density's mass is not: it lost the water
  // that was clipped (and rained out), far more than round-off.
  RecordProperty("d_mass", testing::scientific(result.change.mass));
  EXPECT_LT(std::abs(result.change.mass), 1e-14);
  const double total_mass_change = (sum(variable(run.final, spec, 0)) - sum(variable(run.initial, spec, 0))) *
                                   cell_volume(spec) / (result.initial.mass + before.airborne);
  RecordProperty("total_mass_change", testing::scientific(total_mass_change));
  EXPECT_GT(std::abs(total_mass_change), 1e4 * std::abs(result.change.mass) + 1e-12);
  // W₀, W and the clipped water as summed by hand from the gathered state and surface.
  const double w0 = before.airborne;
  EXPECT_NEAR(result.initial.water->water, w0, 1e-13 * w0);
  EXPECT_NEAR(result.final.water->water, after.airborne + after.precipitated, 1e-13 * w0);
  EXPECT_NEAR(result.change.water->clipped, after.clipped, 1e-13 * w0);
  ASSERT_GT(after.clipped, 0.0) << "moist_thermal clips where the columns' content goes negative";
  EXPECT_NEAR(result.change.water->water, after.clipped / w0, 1e-12);
  // The tracers' masses, the water's among them, as before.
  ASSERT_EQ(result.final.tracer_mass.size(), static_cast<std::size_t>(water_tracers));
  EXPECT_NEAR(result.final.tracer_mass[1],
              sum(variable(run.final, spec, dry_variables(dims()) + 1)) * cell_volume(spec), 1e-13 * w0);
}

TEST_P(MoistFactsTest, WithoutWaterARunWithMicrophysicsIsTheDryRunBitForBit) {
  for (const Granularity granularity : {Granularity::stage, Granularity::fused}) {
    const RunSpec moist = moist_case(dims(), CaseName::thermal, 60.0, granularity);
    RunSpec dry = moist;
    dry.grid.microphysics = Microphysics::none;
    const std::vector<double> dry_state = final_state(dry, backend(), ExecutionMode::eager);
    const MoistRun run = run_of(moist);
    ASSERT_EQ(run.final.size(), dry_state.size() + water_tracers * cells_of(moist));
    EXPECT_TRUE(bitwise_equal({run.final.begin(), run.final.begin() + static_cast<std::ptrdiff_t>(dry_state.size())},
                              dry_state))
        << "granularity " << to_string(granularity);
    for (std::size_t c = dry_state.size(); c < run.final.size(); ++c) ASSERT_EQ(run.final[c], 0.0) << c;
  }
}

TEST_P(MoistFactsTest, ASubsaturatedMoistAtmosphereAtRestStaysExactlyAtRest) {
  // A sounding from a file's contents (background.sounding): stable, its vapour below saturation
  // everywhere (relative humidity 35–50 %), integrated hydrostatically into ρ̄, ρ̄θ̄ and ρ̄_v.
  RunSpec spec = moist_case(dims(), CaseName::rest, 120.0);
  spec.background.sounding = InputSounding{1.0e5,
                                           300.0,
                                           0.010,
                                           {{2000.0, 306.0, 0.005, 0.0, 0.0},
                                            {5000.0, 315.0, 0.0015, 0.0, 0.0},
                                            {8000.0, 324.0, 0.0003, 0.0, 0.0},
                                            {10000.0, 330.0, 0.0001, 0.0, 0.0}}};
  for (const Granularity granularity : {Granularity::stage, Granularity::fine}) {
    spec.execution.granularity = granularity;
    const MoistRun run = run_of(spec, ExecutionMode::graph);
    for (const double value : run.initial) ASSERT_EQ(value, 0.0) << "the state is the background";
    EXPECT_TRUE(bitwise_equal(run.final, run.initial)) << "granularity " << to_string(granularity);
    for (const double value : run.surface) ASSERT_EQ(value, 0.0);
  }
}

TEST_P(MoistFactsTest, MoistThermalStartsAsThermalWhereItHasNoVapour) {
  const RunSpec moist = moist_case(dims(), CaseName::moist_thermal, 1.0);
  RunSpec dry = moist;
  dry.case_name = CaseName::thermal;
  dry.grid.microphysics = Microphysics::none;
  const std::vector<double> moist_state = run_of(moist).initial;
  SerialSimulation thermal(dry, backend(), ExecutionMode::eager);
  const std::vector<double> dry_state = thermal->gathered_state();
  const std::vector<double> vapour = variable(moist_state, moist, dry_variables(dims()));
  int dry_cells = 0, moist_cells = 0;
  for (std::size_t c = 0; c < cells_of(moist); ++c) {
    if (vapour[c] != 0.0) {
      ++moist_cells;
      EXPECT_GT(moist_state[c], dry_state[c]) << "ρ′ holds the vapour's mass, cell " << c;
      continue;
    }
    ++dry_cells;
    for (int v = 0; v < dry_variables(dims()); ++v)
      ASSERT_EQ(moist_state[v * cells_of(moist) + c], dry_state[v * cells_of(moist) + c]) << "cell " << c;
  }
  EXPECT_GT(moist_cells, 0);
  EXPECT_GT(dry_cells, moist_cells);
}

TEST_P(MoistFactsTest, EveryGranularityModeAndCadenceSplitComputesTheSameState) {
  // 60 s, 36 steps: cloud from the first call, rain within a few steps.
  const RunSpec reference_spec = moist_case(dims(), CaseName::moist_thermal, 60.0);
  const MoistRun reference_run = run_of(reference_spec);
  const std::vector<double>& reference = reference_run.final;
  for (const Granularity granularity : {Granularity::pass, Granularity::fused, Granularity::fine})
    EXPECT_TRUE(bitwise_equal(run_of(moist_case(dims(), CaseName::moist_thermal, 60.0, granularity)).final, reference))
        << "granularity " << to_string(granularity);
  // Every mode the backend runs (persistent and persistent_cluster on CUDA: the microphysics
  // inside their kernel, after the pass tiles that carry the water), the surface water too.
  for (const ExecutionMode mode : timed_modes) {
    if (mode == ExecutionMode::eager || !testing::mode_can_run(mode, reference_spec, backend())) continue;
    const MoistRun run = run_of(reference_spec, mode);
    EXPECT_TRUE(bitwise_equal(run.final, reference)) << "mode " << to_string(mode);
    EXPECT_TRUE(bitwise_equal(run.surface, reference_run.surface)) << "surface water, mode " << to_string(mode);
  }
  for (const int steps_per_graph : {1, 3, 7}) {
    RunSpec spec = reference_spec;
    spec.execution.steps_per_graph = steps_per_graph;
    EXPECT_TRUE(bitwise_equal(run_of(spec, ExecutionMode::graph).final, reference))
        << steps_per_graph << " steps a graph";
  }
}

TEST_P(MoistFactsTest, WithTheInitialStateAsDiffusionReferenceEveryGranularityAndModeComputesTheSameState) {
  // θ's vertical diffusion from the initial state (physics.diffusion_reference), read by the
  // stage and pass tiles, the flux kernels and the persistent kernel at each z face's column.
  RunSpec reference_spec = moist_case(dims(), CaseName::moist_thermal, 30.0);
  reference_spec.physics.viscosity = 200.0;
  reference_spec.physics.diffusivity = 600.0;
  reference_spec.physics.reference = DiffusionReference::initial_state;
  const std::vector<double> reference = run_of(reference_spec).final;
  RunSpec background = reference_spec;
  background.physics.reference = DiffusionReference::background;
  EXPECT_FALSE(bitwise_equal(run_of(background).final, reference)) << "the reference changes the run";
  for (const Granularity granularity : {Granularity::pass, Granularity::fused, Granularity::fine}) {
    RunSpec spec = reference_spec;
    spec.execution.granularity = granularity;
    EXPECT_TRUE(bitwise_equal(run_of(spec).final, reference)) << "granularity " << to_string(granularity);
  }
  for (const ExecutionMode mode : timed_modes) {
    if (mode == ExecutionMode::eager || !testing::mode_can_run(mode, reference_spec, backend())) continue;
    EXPECT_TRUE(bitwise_equal(run_of(reference_spec, mode).final, reference)) << "mode " << to_string(mode);
  }
}

TEST_P(MoistFactsTest, MicrophysicsEveryFewStepsIntegratesOverTheStepsSinceItsLastCall) {
  RunSpec every_step = moist_case(dims(), CaseName::moist_thermal, 60.0);
  RunSpec every_third = every_step;
  every_third.moisture.every = 3;
  const MoistRun one = run_of(every_step), three = run_of(every_third);
  EXPECT_FALSE(bitwise_equal(one.final, three.final)) << "the cadence changes the run";
  // Same water budget: d_water is the clipped mass, whatever the cadence.
  const WaterBudget before = budget_of(every_third, three.initial, std::vector<double>(3 * nx * every_third.grid.ny));
  const WaterBudget after = budget_of(every_third, three.final, three.surface);
  EXPECT_NEAR(after.airborne + after.precipitated - before.airborne, after.clipped, 1e-12 * before.airborne);
  // And the cadence splits across graphs as it does without them.
  every_third.execution.steps_per_graph = 4;
  EXPECT_TRUE(bitwise_equal(run_of(every_third, ExecutionMode::graph).final, three.final));
}

TEST_P(MoistFactsTest, WithMoreTracersThanAPassTileCarriesEveryModeComputesTheSameState) {
  // The water and two tracers: five, more than a pass tile carries (pass_kernel_max_tracers), so
  // the passes run stage kernels and the persistent kernel has a barrier a stage, the tracers'
  // cells in each stage and the microphysics (every 3 steps) over every column after the steps.
  RunSpec spec = moist_case(dims(), CaseName::moist_thermal, 30.0, Granularity::pass);
  spec.grid.tracers = {"smoke", "dye"};
  spec.moisture.every = 3;
  const MoistRun reference = run_of(spec);
  for (const ExecutionMode mode : timed_modes) {
    if (mode == ExecutionMode::eager || !testing::mode_can_run(mode, spec, backend())) continue;
    const MoistRun run = run_of(spec, mode);
    EXPECT_TRUE(bitwise_equal(run.final, reference.final)) << "mode " << to_string(mode);
    EXPECT_TRUE(bitwise_equal(run.surface, reference.surface)) << "surface water, mode " << to_string(mode);
  }
}

TEST_P(MoistFactsTest, MoistThermalStaysMirrorSymmetric) {
  const RunSpec spec = moist_case(dims(), CaseName::moist_thermal, 300.0);
  const std::vector<double> state = run_of(spec).final;
  const int rows = nz * spec.grid.ny, vars = static_cast<int>(state.size() / cells_of(spec));
  const int umom = 1;
  double largest = 0.0, scale = 0.0;
  for (int v = 0; v < vars; ++v)
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < nx; ++i) {
        const double a = state[(static_cast<std::size_t>(v) * rows + r) * nx + i];
        const double b = state[(static_cast<std::size_t>(v) * rows + r) * nx + (nx - 1 - i)];
        largest = std::max(largest, std::abs(v == umom ? a + b : a - b));
        scale = std::max(scale, std::abs(a));
      }
  RecordProperty("largest_asymmetry", testing::scientific(largest));
  EXPECT_LT(largest, 1e-10 * scale);
}

}  // namespace simapp::testing::moist
