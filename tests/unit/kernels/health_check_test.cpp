/// The health check (check_health<Dims>), in 2-D and in 3-D: it passes a state at rest, and names
/// the first bad value by variable, then global k, (j,) i, and a signal speed beyond the bound
/// by the speed code (along y in 3-D; the 2-D model finds the same speed along x in the same
/// state without y).
#include "kernels/diagnostics/health_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "tests/support/dimensions.hpp"

namespace simapp {
namespace {

template <class Dims>
class CellHealthCheckTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using V = ModelVariables<dims>;
  static constexpr int nx = 6, ny = dims == 3 ? 5 : 1, nz = 4;
  CellHealthCheckTest()
      : grid(grid_spec()),
        background(Stream{}, case_background(CaseName::rest), grid.geometry<2>(), nz),
        shape(grid.cell_shape<dims>()),
        state(shape.size(), 0.0),
        geometry(grid.geometry<dims>()) {}
  static GridSpec grid_spec() {
    GridSpec spec;
    spec.nx = nx;
    spec.ny = ny;
    spec.nz = nz;
    return spec;
  }
  HealthRecord check() {
    HealthRecord record;
    check_health<double, dims>(Stream{}, FieldView<const double, dims>{state.data(), shape}, background.view(),
                               geometry, &record);
    return record;
  }
  /// The record's code of finding f at global cell (i, j, k) (2-D: j = 0).
  static std::uint64_t code(int f, int k, int j, int i) {
    return ((static_cast<std::uint64_t>(f) * nz + k) * ny + j) * nx + i;
  }
  double& at(int v, int k, int j, int i) { return state[shape.offset(v, k, j, i)]; }

  Grid grid;
  HydrostaticProfile background;
  FieldShape<dims> shape;
  std::vector<double> state;
  CellGeometry<dims> geometry;
};
TYPED_TEST_SUITE(CellHealthCheckTest, testing::Dimensions, testing::DimensionName);

TYPED_TEST(CellHealthCheckTest, AStateAtRestPasses) {
  const HealthRecord record = this->check();
  EXPECT_EQ(record.failed_check, -1);
  EXPECT_EQ(record.first_cell, HealthRecord::no_cell);
}

TYPED_TEST(CellHealthCheckTest, TheFirstBadValueIsNamedByVariableThenKThenJThenI) {
  using Vars = typename TestFixture::V;
  const int j = TestFixture::ny - 1;  // 3-D: 4; 2-D: 0
  this->at(Vars::rhot, 1, 0, 0) = std::numeric_limits<double>::quiet_NaN();
  this->at(Vars::wmom, 3, j, 5) = INFINITY;
  this->at(Vars::wmom, 2, j, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(this->check().first_cell, TestFixture::code(Vars::wmom, 2, j, 1));
  if constexpr (TestFixture::dims == 3) {
    this->at(Vars::vmom, 3, 4, 5) = INFINITY;
    this->at(Vars::vmom, 2, 3, 1) = std::numeric_limits<double>::quiet_NaN();
    const HealthRecord record = this->check();
    EXPECT_EQ(record.failed_check, 0);
    EXPECT_EQ(record.first_cell, TestFixture::code(Vars::vmom, 2, 3, 1));
  }
}

TYPED_TEST(CellHealthCheckTest, ASpeedBeyondTheBoundIsASpeedFinding) {
  using Vars = typename TestFixture::V;
  constexpr int model_dims = TestFixture::dims;
  // The momentum such that the speed alone is 500 m/s > 450 m/s, at (i, j, k) = (4, 2, 1) along y
  // in 3-D; in 2-D the same cell without y, the momentum along x.
  const int j = model_dims == 3 ? 2 : 0;
  const int momentum = model_dims == 3 ? Vars::momentum(1) : Vars::umom;
  this->at(momentum, 1, j, 4) = 500.0 * this->background.to_host(Stream{}).density_cell[1 + numerics::halo_width];
  const HealthRecord record = this->check();
  EXPECT_EQ(record.failed_check, 0);
  EXPECT_EQ(record.first_cell, TestFixture::code(speed_finding<model_dims>, 1, j, 4));
  EXPECT_EQ(speed_finding<model_dims>, Vars::count);
}

}  // namespace
}  // namespace simapp
