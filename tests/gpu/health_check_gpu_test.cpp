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

INSTANTIATE_TEST_SUITE_P(CudaModes, CudaHealthCheckTest,
                         ::testing::Values(ExecutionMode::eager_sync, ExecutionMode::eager,
                                           ExecutionMode::eager_streams, ExecutionMode::graph,
                                           ExecutionMode::graph_loop, ExecutionMode::persistent),
                         [](const ::testing::TestParamInfo<ExecutionMode>& param) {
                           return std::string(to_string(param.param));
                         });

}  // namespace
}  // namespace simapp
