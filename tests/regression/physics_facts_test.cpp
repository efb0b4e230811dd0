/// The facts a correct solver shows (docs/model.md, "Facts a correct implementation shows"),
/// checked on the host backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "solver/simulation/run_loop.hpp"
#include "solver/time/time_stepping.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::small_case;
using testing::state_of;

RunResult run(const RunSpec& spec) {
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  return run_to_end(*simulation, 0, [](const ProgressReport&) {});
}

/// Round-off bound on |d_mass|: a few ulps per cell per step.
double mass_tolerance(const RunSpec& spec, long steps) {
  return 4.0 * std::numeric_limits<double>::epsilon() * spec.grid.nx * spec.grid.nz * static_cast<double>(steps);
}

class MassConservationTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(MassConservationTest, MassIsConservedToRoundOff) {
  const RunSpec spec = small_case(GetParam(), 64, 32, 200.0);
  const RunResult result = run(spec);
  EXPECT_GT(result.steps, 100);
  EXPECT_LT(std::abs(result.change.mass), mass_tolerance(spec, result.steps)) << to_string(GetParam());
  EXPECT_TRUE(std::isfinite(result.change.total_energy));
}

INSTANTIATE_TEST_SUITE_P(ClosedCases, MassConservationTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::rest, CaseName::straka),
                         [](const auto& test_info) { return std::string(to_string(test_info.param)); });

TEST(PhysicsFactsTest, InjectionAddsMassThroughItsInflow) {
  const RunResult result = run(small_case(CaseName::injection, 64, 32, 100.0));
  EXPECT_GT(result.change.mass, 1e-6);
}

TEST(PhysicsFactsTest, RestStaysExactlyAtRest) {
  testing::SerialSimulation simulation(small_case(CaseName::rest, 40, 20, 100.0), Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  ASSERT_TRUE(simulation->finished());
  const testing::HostState state = state_of(*simulation);
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < state.shape.nz; ++k)
      for (int i = 0; i < state.shape.nx; ++i)
        ASSERT_EQ(state(v, k, i), 0.0) << variable_names<2>[v] << " at k=" << k << " i=" << i;
}

// gravity_waves starts as a uniform wind over its stratified background, and its only forcing that
// depends on x is the wave source, the case's bump as configured: with no amplitude, every column
// stays the same bit for bit (x is periodic).
TEST(PhysicsFactsTest, GravityWavesWithoutAWaveSourceStayUniformInX) {
  RunSpec spec = small_case(CaseName::gravity_waves, 40, 20, 100.0);
  spec.perturbation.amplitude = 0.0;
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  ASSERT_TRUE(simulation->finished());
  const testing::HostState state = state_of(*simulation);
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < state.shape.nz; ++k)
      for (int i = 1; i < state.shape.nx; ++i)
        ASSERT_EQ(state(v, k, i), state(v, k, 0)) << variable_names<2>[v] << " at k=" << k << " i=" << i;
}

class MirrorSymmetryTest : public ::testing::TestWithParam<CaseName> {};

/// θ′ and w are symmetric and u antisymmetric about x = xlen/2: cell i mirrors cell nx − 1 − i.
TEST_P(MirrorSymmetryTest, StaysMirrorSymmetric) {
  testing::SerialSimulation simulation(small_case(GetParam(), 80, 40, 150.0), Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const testing::HostState state = state_of(*simulation);
  const double parity[var::count] = {1.0, -1.0, 1.0, 1.0};
  for (int v = 0; v < var::count; ++v) {
    const testing::MirrorAsymmetry found = testing::mirror_asymmetry(state, v, parity[v]);
    EXPECT_GT(found.largest, 0.0) << variable_names<2>[v];
    EXPECT_LT(found.asymmetry, 1e-11 * found.largest) << variable_names<2>[v];
  }
}

INSTANTIATE_TEST_SUITE_P(SymmetricCases, MirrorSymmetryTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::density_current,
                                           CaseName::straka),
                         [](const auto& test_info) { return std::string(to_string(test_info.param)); });

TEST(PhysicsFactsTest, ThermalEnergyLossIsSmallNegativeAndShrinksWithResolution) {
  const RunResult coarse = run(small_case(CaseName::thermal, 100, 50, 400.0));
  EXPECT_EQ(coarse.steps, 600);
  EXPECT_LT(coarse.change.total_energy, -1e-5);
  EXPECT_GT(coarse.change.total_energy, -1e-4);
  const RunResult fine = run(small_case(CaseName::thermal, 200, 100, 400.0));
  EXPECT_LT(fine.change.total_energy, 0.0);
  EXPECT_LT(std::abs(fine.change.total_energy), std::abs(coarse.change.total_energy));
}

/// The state after running `spec` to its end, and the time and step it ended at.
struct EndOfRun {
  std::vector<double> state;
  double time = 0.0;
  long step = 0;
};

EndOfRun end_of(const RunSpec& spec) {
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  return {simulation->gathered_state(), simulation->time(), simulation->step()};
}

/// The last step is shortened to land on sim_time, and the kernels step by that shorter dt:
/// against the run that stops a step earlier (state C) and the one whose last step is a full dt
/// (state B), the shortened run's last change A − C is, to first order in dt, the full step's
/// change B − C scaled by dt_last / dt (0.173 against 0.180 here; 10 % allowed for the second-order
/// terms). Kernels that stepped by dt, or skipped the short step, give 1 or 0.
TEST(PhysicsFactsTest, ShortenedLastStepLandsOnSimTimeWithTheShorterDt) {
  RunSpec spec = small_case(CaseName::thermal, 40, 20, 10.3);
  const TimeStepping stepping(spec.time.sim_time, spec.grid.xlen / spec.grid.nx, spec.grid.zlen / spec.grid.nz,
                              spec.time.cfl);
  ASSERT_LT(stepping.dt_last(), 0.9 * stepping.dt()) << "the case must end on a clearly shorter step";
  const EndOfRun shortened = end_of(spec);
  EXPECT_EQ(shortened.time, 10.3);
  EXPECT_EQ(shortened.step, stepping.num_steps());
  spec.time.sim_time = stepping.time_after(stepping.num_steps() - 1);
  const EndOfRun before = end_of(spec);
  ASSERT_EQ(before.step, stepping.num_steps() - 1);
  spec.time.sim_time = stepping.time_after(stepping.num_steps() - 1) + stepping.dt();
  const EndOfRun full = end_of(spec);
  ASSERT_EQ(full.step, stepping.num_steps());
  double along = 0.0, full_norm = 0.0, short_norm = 0.0;
  for (std::size_t n = 0; n < before.state.size(); ++n) {
    const double a = shortened.state[n] - before.state[n], b = full.state[n] - before.state[n];
    along += a * b;
    full_norm += b * b;
    short_norm += a * a;
  }
  ASSERT_GT(full_norm, 0.0);
  const double ratio = along / full_norm;  // A − C projected on B − C
  EXPECT_NEAR(ratio, stepping.dt_last() / stepping.dt(), 0.1 * stepping.dt_last() / stepping.dt())
      << "dt_last / dt = " << stepping.dt_last() / stepping.dt();
  EXPECT_NEAR(std::sqrt(short_norm / full_norm), stepping.dt_last() / stepping.dt(),
              0.1 * stepping.dt_last() / stepping.dt());
}

}  // namespace
}  // namespace simapp
