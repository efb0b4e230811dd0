/// The health check inside the step programs on the GPU, in every CUDA execution mode, against
/// the host's own scan of the state (label gpu; skipped without a CUDA device).
#include <gtest/gtest.h>

#include "kernels/backend/device_runtime.hpp"
#include "tests/support/health_scan.hpp"

namespace simapp {
namespace {

class CudaHealthCheckTest : public ::testing::TestWithParam<ExecutionMode> {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
};

TEST_P(CudaHealthCheckTest, NanInOneCellStopsTheRunAtTheNextCheckNamingTheCell) {
  testing::expect_nan_caught_at_next_check(Backend::cuda, GetParam());
}

TEST_P(CudaHealthCheckTest, UnstableTimeStepStopsTheRunWhereTheHostFindsItUnstable) {
  testing::expect_unstable_step_caught(Backend::cuda, GetParam());
}

/// The same step and cell as the host backend in every mode, for chunks that check_every does
/// not divide, with outputs and without: graph_loop's loop body holding the checks (check_every
/// 10 and 3, bodies of 10 and 6 steps; without outputs the failing check is the body's) or not
/// (1000: a body that long would be too large a graph, so a chunk checks the last step), the
/// persistent kernel placing them by its global step count.
TEST_P(CudaHealthCheckTest, EveryModeNamesTheStepAndCellOfTheGlobalCadence) {
  for (const testing::CheckCadence cadence :
       {testing::CheckCadence{10, 4}, testing::CheckCadence{3, 4}, testing::CheckCadence{1000, 3}})
    testing::expect_check_at_global_multiples(Backend::cuda, GetParam(), Granularity::stage, cadence);
}

INSTANTIATE_TEST_SUITE_P(CudaModes, CudaHealthCheckTest,
                         ::testing::Values(ExecutionMode::eager_sync, ExecutionMode::eager,
                                           ExecutionMode::eager_streams, ExecutionMode::graph,
                                           ExecutionMode::graph_loop, ExecutionMode::persistent,
                                           ExecutionMode::persistent_cluster),
                         [](const ::testing::TestParamInfo<ExecutionMode>& param) {
                           return std::string(to_string(param.param));
                         });

}  // namespace
}  // namespace simapp
