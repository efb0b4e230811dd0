/// The health check inside the step programs (execution.check_every) on the host backend, in
/// every execution mode the host has, against the host's own scan of the state.
#include <gtest/gtest.h>

#include "tests/support/health_scan.hpp"

namespace simapp {
namespace {

class HealthCheckTest : public ::testing::TestWithParam<ExecutionMode> {};

TEST_P(HealthCheckTest, NanInOneCellStopsTheRunAtTheNextCheckNamingTheCell) {
  testing::expect_nan_caught_at_next_check(Backend::host, GetParam());
}

TEST_P(HealthCheckTest, UnstableTimeStepStopsTheRunWhereTheHostFindsItUnstable) {
  testing::expect_unstable_step_caught(Backend::host, GetParam());
}

TEST_P(HealthCheckTest, EveryGranularityNamesTheStepOfTheGlobalCadence) {
  // Chunk lengths and check_every that do not divide each other, an odd check_every (chunks and
  // checks meet on both parities), and one larger than the run (only its last step is checked).
  for (const testing::CheckCadence cadence : {testing::CheckCadence{10, 4}, testing::CheckCadence{3, 4},
                                              testing::CheckCadence{7, 5}, testing::CheckCadence{1000, 3}})
    for (Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage})
      testing::expect_check_at_global_multiples(Backend::host, GetParam(), granularity, cadence);
}

TEST_P(HealthCheckTest, PrepareCapturesEveryChunkTheRunTakes) {
  // Chunks now differ by where their checks fall; none may be captured while stepping.
  for (const int check_every : {10, 3}) {
    RunSpec spec = testing::small_case(CaseName::thermal, 40, 20, 1.0);
    spec.time.sim_time = 45 * TimeStepping(1.0, 500.0, 500.0, spec.time.cfl).dt();
    spec.execution.steps_per_graph = 4;
    spec.execution.check_every = check_every;
    testing::SerialSimulation simulation(spec, Backend::host, GetParam());
    const std::vector<ScheduledOutput> outputs{
        {std::vector<long>{7, 23, 29}, [](long, double, std::span<const double>) {}, nullptr, nullptr}};
    const RunResult result = run_to_end(
        *simulation, 0, [](const ProgressReport&) {}, outputs);
    EXPECT_EQ(simulation->executor_stats().captures, result.prepared.captures) << "check_every " << check_every;
  }
}

INSTANTIATE_TEST_SUITE_P(HostModes, HealthCheckTest,
                         ::testing::Values(ExecutionMode::eager_sync, ExecutionMode::eager, ExecutionMode::graph),
                         [](const ::testing::TestParamInfo<ExecutionMode>& param) {
                           return std::string(to_string(param.param));
                         });

}  // namespace
}  // namespace simapp
