/// The 3-D model's initial state (set_initial_state_3d: 3×3×3 Gauss–Legendre averages of the
/// ellipsoid bumps) against the 2-D model's (3×3): uniform along y it is the 2-D state at every j
/// (bit-identical across j, equal to 1e-12: the y weights sum to 1 in rounding), uniform along x
/// the 2-D state of the y–z plane; the 3-D bumps are those of docs/model.md, "3-D".
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/grid/grid.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;
constexpr double inf = INFINITY;

/// The 2-D variable of a 3-D one (x_role: the 3-D momentum in the 2-D model's x role); -1: ρ along
/// the uniform axis, which is 0.
int two_d_variable(int v3, int x_role) {
  if (v3 == V3::dens) return var::dens;
  if (v3 == V3::wmom) return var::wmom;
  if (v3 == V3::rhot) return var::rhot;
  return v3 == x_role ? var::umom : -1;
}

struct States {
  /// The 2-D state of `name` made of `bump` on nx × nz cells of the default domain, and the 3-D
  /// one made of `bump3` on a box whose uniform axis (y when `y_uniform`, else x) has `n` cells.
  States(CaseName name, const Bump<2>& bump, const Bump<3>& bump3, int nx, int nz, int n, bool y_uniform)
      : grid(grid_spec(nx, nz)),
        two_d(grid.cell_shape<2>().size()),
        shape{y_uniform ? nx : n, y_uniform ? n : nx, nz, numerics::halo_width, V3::count},
        three_d(shape.size()) {
    set_initial_state(Stream{}, {two_d.data(), grid.cell_shape<2>()}, name, bump, grid.geometry<2>());
    CellGeometry<3> geometry{grid.geometry<2>(), grid.dx(), grid.spec().xlen, shape.ny, 0};
    if (!y_uniform) {  // the 2-D x axis is the 3-D y axis
      geometry.dx = 300.0;
      geometry.xlen = 300.0 * n;
      geometry.global_nx = n;
    } else {
      geometry.dy = 300.0;
      geometry.ylen = 300.0 * n;
    }
    set_initial_state_3d(Stream{}, {three_d.data(), shape}, name, bump3, geometry);
  }
  static GridSpec grid_spec(int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  Grid grid;
  std::vector<double> two_d;
  FieldShape<3> shape;
  std::vector<double> three_d;
};

/// The largest |3-D − 2-D| over every cell, halos included, relative to the variable's largest
/// |2-D| value (the 2-D value taken at i along the 2-D x axis, which is the 3-D `along` axis).
double largest_relative_difference(const States& s, bool y_uniform) {
  const FieldView<const double, 2> q2{s.two_d.data(), s.grid.cell_shape<2>()};
  const FieldView<const double, 3> q3{s.three_d.data(), s.shape};
  const int h = s.shape.halo;
  double worst = 0.0;
  for (int v = 0; v < V3::count; ++v) {
    const int v2 = two_d_variable(v, y_uniform ? V3::umom : V3::vmom);
    double scale = 0.0, difference = 0.0;
    for (int k = -h; k < s.shape.nz + h; ++k)
      for (int j = -h; j < s.shape.ny + h; ++j)
        for (int i = -h; i < s.shape.nx + h; ++i) {
          const double expected = v2 < 0 ? 0.0 : q2(v2, k, y_uniform ? i : j);
          scale = std::max(scale, std::abs(expected));
          difference = std::max(difference, std::abs(q3(v, k, j, i) - expected));
        }
    worst = std::max(worst, scale > 0.0 ? difference / scale : difference);
  }
  return worst;
}

std::string case_label(const ::testing::TestParamInfo<CaseName>& param_info) {
  return std::string(to_string(param_info.param));
}

class InitialState3dTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(InitialState3dTest, UniformInYItIsTheTwoDStateAtEveryJ) {
  const CaseName name = GetParam();
  const Bump<2> bump = case_bump(name, 20000.0);
  const States s(name, bump, uniform_in_y(bump), 40, 20, 5, true);
  EXPECT_LE(largest_relative_difference(s, true), 1e-12) << to_string(name);
  const FieldView<const double, 3> q3{s.three_d.data(), s.shape};
  for (int v = 0; v < V3::count; ++v)
    for (int k = 0; k < s.shape.nz; ++k)
      for (int j = 1; j < s.shape.ny; ++j)
        for (int i = 0; i < s.shape.nx; ++i)
          ASSERT_EQ(q3(v, k, j, i), q3(v, k, 0, i)) << to_string(name) << " v=" << v << " k=" << k << " j=" << j;
}

INSTANTIATE_TEST_SUITE_P(Cases, InitialState3dTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::injection, CaseName::rest,
                                           CaseName::straka),
                         case_label);

class InitialState3dUniformInXTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(InitialState3dUniformInXTest, ItIsTheTwoDStateOfTheYZPlane) {
  const CaseName name = GetParam();
  const Bump<2> bump = case_bump(name, 20000.0);
  const Bump<3> bump3{bump.amplitude, 0.0, bump.x0, bump.z0, inf, bump.xr, bump.zr};
  const States s(name, bump, bump3, 40, 20, 5, false);
  EXPECT_LE(largest_relative_difference(s, false), 1e-12) << to_string(name);
}

// Not gravity_waves: its wind is along x, so its state is not the 2-D one of the y–z plane.
INSTANTIATE_TEST_SUITE_P(CasesWithoutAnXWind, InitialState3dUniformInXTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::density_current,
                                           CaseName::injection, CaseName::rest, CaseName::straka),
                         case_label);

TEST(Bump3dTest, TheCasesBumpsAreTheEllipsoidsOfDocsModelMd) {
  // y₀ = ylen/2, y_r = x_r; thermal a sphere of 2000 m at (xlen/2, ylen/2, 2000 m).
  const Bump<3> thermal = case_bump_3d(case_bump(CaseName::thermal, 20000.0), 16000.0);
  EXPECT_EQ(thermal.y0, 8000.0);
  EXPECT_EQ(thermal.yr, thermal.xr);
  EXPECT_EQ(thermal(10000.0, 8000.0, 2000.0), 3.0);
  EXPECT_EQ(thermal(10000.0, 8000.0 + 2001.0, 2000.0), 0.0);
  EXPECT_NEAR(thermal(10000.0 + 1000.0, 8000.0, 2000.0), thermal(10000.0, 8000.0 + 1000.0, 2000.0), 1e-15);
  // density_current: x_r = y_r = 4000 m, z_r = 2000 m.
  const Bump<3> current = case_bump_3d(case_bump(CaseName::density_current, 20000.0), 20000.0);
  EXPECT_EQ(current.xr, 4000.0);
  EXPECT_EQ(current.yr, 4000.0);
  EXPECT_EQ(current.zr, 2000.0);
  // gravity_waves' source at (xlen/8, ylen/2, 1000 m), radii 500 m.
  const Bump<3> source = case_bump_3d(case_bump(CaseName::gravity_waves, 20000.0), 20000.0);
  EXPECT_EQ(source.x0, 2500.0);
  EXPECT_EQ(source.y0, 10000.0);
  EXPECT_EQ(source.z0, 1000.0);
  EXPECT_EQ(source.yr, 500.0);
  // collision's cold bubble 6000 m above the warm one, of the opposite amplitude.
  const Bump<3> warm = case_bump_3d(case_bump(CaseName::collision, 20000.0), 20000.0);
  const Bump<3> cold = collision_cold_bubble(warm);
  EXPECT_EQ(cold.amplitude, -warm.amplitude);
  EXPECT_EQ(cold.z0, warm.z0 + 6000.0);
  EXPECT_EQ(cold.y0, warm.y0);
}

}  // namespace
}  // namespace simapp
