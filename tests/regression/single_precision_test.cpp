/// execution.precision: float32 (docs/model.md, "Precision"): the facts a correct solver shows, in
/// single precision, its distance from the float64 run, and the same bits in every granularity and
/// mode (host backend; the gpu suite repeats the equivalence on CUDA).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "solver/simulation/run_loop.hpp"
#include "solver/time/time_stepping.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::bitwise_equal;
using testing::small_case;
using testing::state_of;

RunSpec in_float32(RunSpec spec) {
  spec.execution.precision = Precision::float32;
  return spec;
}

RunResult run(const RunSpec& spec) {
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  return run_to_end(*simulation, 0, [](const ProgressReport&) {});
}

/// Whether every value is a float's: what a float32 state widened to double holds.
bool all_floats(const std::vector<double>& values) {
  for (const double value : values)
    if (static_cast<double>(static_cast<float>(value)) != value) return false;
  return true;
}

TEST(SinglePrecisionTest, TheStateIsHeldInTheRunsPrecision) {
  const RunSpec spec = small_case(CaseName::thermal, 40, 20, 30.0);
  EXPECT_TRUE(all_floats(testing::final_state(in_float32(spec), Backend::host, ExecutionMode::graph)));
  EXPECT_FALSE(all_floats(testing::final_state(spec, Backend::host, ExecutionMode::graph)))
      << "a float64 run's state holds values no float holds";
}

/// The gate of docs/validation.md: |d_mass| ≤ 1e-9 after 1000 steps (the exact sums in double).
TEST(SinglePrecisionTest, MassChangesByLessThanOneInABillionIn1000Steps) {
  RunSpec spec = in_float32(small_case(CaseName::thermal, 64, 32, 1.0));
  spec.time.sim_time =
      1000 * TimeStepping(1.0, spec.grid.xlen / spec.grid.nx, spec.grid.zlen / spec.grid.nz, spec.time.cfl).dt();
  const RunResult result = run(spec);
  EXPECT_GE(result.steps, 1000);
  EXPECT_LT(std::abs(result.change.mass), 1e-9);
  EXPECT_TRUE(std::isfinite(result.change.total_energy));
}

TEST(SinglePrecisionTest, RestStaysExactlyAtRest) {
  testing::SerialSimulation simulation(in_float32(small_case(CaseName::rest, 40, 20, 100.0)), Backend::host,
                                       ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  ASSERT_TRUE(simulation->finished());
  const testing::HostState state = state_of(*simulation);
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < state.shape.nz; ++k)
      for (int i = 0; i < state.shape.nx; ++i)
        ASSERT_EQ(state(v, k, i), 0.0) << variable_names<2>[v] << " at k=" << k << " i=" << i;
}

/// θ′ and w symmetric, u antisymmetric about x = xlen/2, to 1e-4 of each variable's largest value.
TEST(SinglePrecisionTest, ThermalStaysMirrorSymmetric) {
  testing::SerialSimulation simulation(in_float32(small_case(CaseName::thermal, 80, 40, 150.0)), Backend::host,
                                       ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const testing::HostState state = state_of(*simulation);
  const double parity[var::count] = {1.0, -1.0, 1.0, 1.0};
  for (int v = 0; v < var::count; ++v) {
    const testing::MirrorAsymmetry found = testing::mirror_asymmetry(state, v, parity[v]);
    EXPECT_GT(found.largest, 0.0) << variable_names<2>[v];
    EXPECT_LT(found.asymmetry, 1e-4 * found.largest) << variable_names<2>[v];
  }
}

/// The gate of docs/validation.md: thermal on 100 × 50 cells at 400 s within 5e-3 relative L2 of
/// the float64 run, each variable (the JAX model's float32: 0.8–2.5e-3 in 3-D).
TEST(SinglePrecisionTest, ThermalAt400SecondsIsWithinFiveThousandthsOfFloat64) {
  const RunSpec spec = small_case(CaseName::thermal, 100, 50, 400.0);
  testing::SerialSimulation single(in_float32(spec), Backend::host, ExecutionMode::graph);
  testing::SerialSimulation reference(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*single, 0, [](const ProgressReport&) {});
  run_to_end(*reference, 0, [](const ProgressReport&) {});
  ASSERT_EQ(single->step(), 600);
  for (int v = 0; v < var::count; ++v) {
    const double l2 = testing::relative_l2(state_of(*single), state_of(*reference), v);
    EXPECT_LT(l2, 5e-3) << variable_names<2>[v];
    EXPECT_GT(l2, 0.0) << variable_names<2>[v] << ": float32 must round somewhere";
    RecordProperty("relative_l2_" + std::string(variable_names<2>[v]), std::to_string(l2));
  }
}

/// Every granularity and mode gives the float32 state of the stage granularity's eager run bit for
/// bit: the dry model with an inflow (injection), with two tracers, and with water.
TEST(SinglePrecisionTest, EveryGranularityAndModeGivesTheSameBits) {
  const auto cases = [] {
    std::vector<RunSpec> specs;
    specs.push_back(testing::shortened_case(CaseName::injection, 48, 24, Granularity::stage, 4));
    RunSpec tracers = testing::shortened_case(CaseName::thermal, 48, 24, Granularity::stage, 4);
    tracers.grid.tracers = {"smoke", "dye"};
    specs.push_back(tracers);
    RunSpec moist = testing::shortened_case(CaseName::moist_thermal, 48, 24, Granularity::stage, 4);
    moist.grid.microphysics = Microphysics::kessler;
    specs.push_back(moist);
    return specs;
  }();
  for (const RunSpec& base : cases) {
    const RunSpec reference_spec = in_float32(base);
    const std::vector<double> reference = testing::final_state(reference_spec, Backend::host, ExecutionMode::eager);
    ASSERT_TRUE(all_floats(reference));
    for (Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::stage, Granularity::pass})
      for (ExecutionMode mode : {ExecutionMode::eager_sync, ExecutionMode::eager, ExecutionMode::graph}) {
        RunSpec spec = reference_spec;
        spec.execution.granularity = granularity;
        EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::host, mode), reference))
            << to_string(base.case_name) << " " << to_string(granularity) << " " << to_string(mode);
      }
  }
}

}  // namespace
}  // namespace simapp
