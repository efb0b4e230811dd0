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

INSTANTIATE_TEST_SUITE_P(HostModes, HealthCheckTest,
                         ::testing::Values(ExecutionMode::eager_sync, ExecutionMode::eager, ExecutionMode::graph),
                         [](const ::testing::TestParamInfo<ExecutionMode>& param) {
                           return std::string(to_string(param.param));
                         });

}  // namespace
}  // namespace simapp
