/// The 3-D model's stage kernels on a GPU against the 2-D model's on the same GPU (the host's are
/// tests/regression/stage_kernel_3d_test.cpp): a state uniform in y equals the 2-D run at every j,
/// one uniform in x the 2-D run in the y–z plane, bit for bit.
#include <gtest/gtest.h>

#include "kernels/backend/device_runtime.hpp"
#include "tests/support/uniform_runs_3d.hpp"

namespace simapp {
namespace {

using testing::CaseSetup;
using testing::TwoModels;

/// A CUDA stream for the test, or a skip without a GPU.
class CudaStageKernel3dTest : public ::testing::TestWithParam<CaseSetup> {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
    stream_ = device::create_stream(Backend::cuda);
  }
  void TearDown() override {
    if (stream_.backend == Backend::cuda) device::destroy_stream(stream_);
  }
  Stream stream_;
};

TEST_P(CudaStageKernel3dTest, UniformInYEqualsTheTwoDModelAtEveryJBitForBit) {
  TwoModels models(stream_, GetParam(), 200, 13, 24, true);
  for (long step = 1; step <= 2; ++step) {
    models.step(step);
    EXPECT_EQ(models.first_difference(), "") << label(GetParam()) << ", after step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CudaStageKernel3dTest, ::testing::ValuesIn(testing::cases_uniform_in_y()),
                         testing::case_label);

class CudaStageKernel3dUniformInXTest : public CudaStageKernel3dTest {};

TEST_P(CudaStageKernel3dUniformInXTest, EqualsTheTwoDModelInTheYZPlaneWithVAsUBitForBit) {
  TwoModels models(stream_, GetParam(), 200, 7, 24, false);
  for (long step = 1; step <= 2; ++step) {
    models.step(step);
    EXPECT_EQ(models.first_difference(), "") << label(GetParam()) << ", after step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(CasesWithoutAnXFeature, CudaStageKernel3dUniformInXTest,
                         ::testing::ValuesIn(testing::cases_uniform_in_x()), testing::case_label);

}  // namespace
}  // namespace simapp
