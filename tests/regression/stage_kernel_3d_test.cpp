/// The 3-D model's stage kernels (kernels/stage/stage_kernel_3d.hpp) against the 2-D model's
/// (a second code path), on the host, whole steps of the 3-D step scheme (x, y, z | z, y, x):
/// - a state that does not depend on y stays the same at every j, with ρv = 0, and equals the
///   2-D model's run at every j, bit for bit (every case, viscosity included);
/// - a state that does not depend on x equals the 2-D run in the y–z plane with v in the role
///   of u, at every i, bit for bit: the y pass is the 2-D x pass along j;
/// - mass is conserved to round-off by a state that varies in all three directions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/support/uniform_runs_3d.hpp"

namespace simapp {
namespace {

using testing::CaseSetup;
using testing::TwoModels;
using testing::V3;

class StageKernel3dUniformInYTest : public ::testing::TestWithParam<CaseSetup> {};

TEST_P(StageKernel3dUniformInYTest, EqualsTheTwoDModelAtEveryJBitForBit) {
  // 100 cells: two x tiles; 13 along y: two y tiles; 24 along z: three z tiles.
  TwoModels models(Stream{}, GetParam(), 100, 13, 24, true);
  for (long step = 1; step <= 2; ++step) {
    models.step(step);
    EXPECT_EQ(models.first_difference(), "") << label(GetParam()) << ", after step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, StageKernel3dUniformInYTest, ::testing::ValuesIn(testing::cases_uniform_in_y()),
                         testing::case_label);

class StageKernel3dUniformInXTest : public ::testing::TestWithParam<CaseSetup> {};

TEST_P(StageKernel3dUniformInXTest, EqualsTheTwoDModelInTheYZPlaneWithVAsUBitForBit) {
  TwoModels models(Stream{}, GetParam(), 100, 7, 24, false);
  for (long step = 1; step <= 2; ++step) {
    models.step(step);
    EXPECT_EQ(models.first_difference(), "") << label(GetParam()) << ", after step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(CasesWithoutAnXFeature, StageKernel3dUniformInXTest,
                         ::testing::ValuesIn(testing::cases_uniform_in_x()), testing::case_label);

TEST(StageKernel3dMassTest, AStateVaryingInEveryDirectionConservesMassToRoundOff) {
  TwoModels models(Stream{}, CaseSetup{CaseName::thermal, 75.0}, 40, 18, 20, true);
  FieldView<double, 3>& q = models.three_d.state.view;  // host memory: the host backend's
  const FieldShape<3>& s = q.shape;
  const auto pattern = [](int v, int k, int j, int i) { return 1e-3 * std::cos(0.9 * j + 0.4 * i - 0.6 * k + v); };
  for (int v = 0; v < V3::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) q(v, k, j, i) += pattern(v, k, j, i);
  const HydrostaticColumns columns = models.background.to_host(models.stream);
  const auto mass = [&] {
    double sum = 0.0;
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) sum += q(V3::dens, k, j, i) + columns.density_cell[k + s.halo];
    return sum;
  };
  const double before = mass();
  const double v_before = q(V3::vmom, s.nz / 2, s.ny / 2, s.nx / 2);
  for (long step = 1; step <= 4; ++step) models.step(step);
  EXPECT_NEAR(mass(), before, 1e-13 * before);
  EXPECT_NE(q(V3::vmom, s.nz / 2, s.ny / 2, s.nx / 2), v_before) << "the state did not move";
}

}  // namespace
}  // namespace simapp
