/// The 3-D model's health check (check_health_3d): it passes a state at rest, and names the first
/// bad value by variable, then global (k, j, i), and a signal speed beyond the bound along y by
/// the speed code; the 2-D model's finds the same speed in the same state without y.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

class HealthCheck3dTest : public ::testing::Test {
 protected:
  static constexpr int nx = 6, ny = 5, nz = 4;
  HealthCheck3dTest()
      : grid(grid_spec()),
        background(Stream{}, case_background(CaseName::rest), grid.geometry<2>(), nz),
        shape{nx, ny, nz, numerics::halo_width, V3::count},
        state(shape.size(), 0.0),
        geometry{grid.geometry<2>(), 1000.0, 5000.0, ny, 0} {}
  static GridSpec grid_spec() {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  HealthRecord check() {
    HealthRecord record;
    check_health_3d(Stream{}, FieldView<const double, 3>{state.data(), shape}, background.view(), geometry, &record);
    return record;
  }
  /// The record's code of finding f at global cell (i, j, k).
  static std::uint64_t code(int f, int k, int j, int i) {
    return ((static_cast<std::uint64_t>(f) * nz + k) * ny + j) * nx + i;
  }
  double& at(int v, int k, int j, int i) { return state[shape.offset(v, k, j, i)]; }

  Grid grid;
  HydrostaticProfile background;
  FieldShape<3> shape;
  std::vector<double> state;
  CellGeometry<3> geometry;
};

TEST_F(HealthCheck3dTest, AStateAtRestPasses) {
  const HealthRecord record = check();
  EXPECT_EQ(record.failed_check, -1);
  EXPECT_EQ(record.first_cell, HealthRecord::no_cell);
}

TEST_F(HealthCheck3dTest, TheFirstBadValueIsNamedByVariableThenKThenJThenI) {
  at(V3::rhot, 1, 0, 0) = std::numeric_limits<double>::quiet_NaN();
  at(V3::vmom, 3, 4, 5) = INFINITY;
  at(V3::vmom, 2, 3, 1) = std::numeric_limits<double>::quiet_NaN();
  const HealthRecord record = check();
  EXPECT_EQ(record.failed_check, 0);
  EXPECT_EQ(record.first_cell, code(V3::vmom, 2, 3, 1));
}

TEST_F(HealthCheck3dTest, ASpeedAlongYBeyondTheBoundIsASpeedFinding) {
  // ρv such that |v| alone is 500 m/s > 450 m/s, at (i, j, k) = (4, 2, 1).
  at(V3::vmom, 1, 2, 4) = 500.0 * background.to_host(Stream{}).density_cell[1 + numerics::halo_width];
  const HealthRecord record = check();
  EXPECT_EQ(record.failed_check, 0);
  EXPECT_EQ(record.first_cell, code(speed_finding_3d, 1, 2, 4));
  // The 2-D check of the same cell with that momentum along x finds a speed too.
  const FieldShape<2> shape_2d = grid.cell_shape<2>();
  std::vector<double> state_2d(shape_2d.size(), 0.0);
  state_2d[shape_2d.offset(var::umom, 1, 4)] = at(V3::vmom, 1, 2, 4);
  HealthRecord record_2d;
  check_health(Stream{}, FieldView<const double, 2>{state_2d.data(), shape_2d}, background.view(), grid.geometry<2>(),
               &record_2d);
  EXPECT_EQ(record_2d.first_cell, (static_cast<std::uint64_t>(speed_finding) * nz + 1) * nx + 4);
}

}  // namespace
}  // namespace simapp
