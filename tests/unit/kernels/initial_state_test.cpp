/// The case's bump (docs/model.md, "Initial state" and "3-D") and the initial state made of it,
/// in both models: an infinite radius makes the bump uniform along its axis, the case's own values
/// given as perturbation.* change no bit, and moving the centre by whole cells moves the field by
/// them. The 3-D state (3×3×3 Gauss–Legendre averages of the ellipsoid bumps) against the 2-D one
/// (3×3): uniform along y it is the 2-D state at every j (bit-identical across j, equal to 1e-12:
/// the y weights sum to 1 in rounding), uniform along x the 2-D state of the y–z plane.
#include "kernels/initial_conditions/initial_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/grid/grid.hpp"
#include "solver/spec/run_spec.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(BumpTest, AnInfiniteRadiusMakesItsDistanceTermExactlyZero) {
  // IEEE 754: a finite number over +∞ is ±0, and (±0)² is +0, so the term adds nothing.
  EXPECT_TRUE(same_bits((12345.0 - 1000.0) / inf, 0.0));
  EXPECT_TRUE(std::signbit((-12345.0 - 1000.0) / inf));
  const double negative_zero = -1e300 / inf;
  EXPECT_TRUE(same_bits(negative_zero * negative_zero, 0.0));

  // Uniform in x: the bump at any x is the bump at x = x₀, whatever the (finite) x radius.
  const Bump<2> along_x{2.5, 1000.0, 3000.0, inf, 1500.0};
  const Bump<2> finite_x{2.5, 1000.0, 3000.0, 700.0, 1500.0};
  // Uniform in z likewise.
  const Bump<2> along_z{2.5, 1000.0, 3000.0, 700.0, inf};
  const Bump<2> finite_z{2.5, 1000.0, 3000.0, 700.0, 1500.0};
  int nonzero = 0;
  for (const double x : {-1e300, -5000.0, 0.0, 999.0, 1000.0, 1300.0, 1e6, 1e300}) {
    for (const double z : {-1e300, 1500.0, 2000.0, 3000.0, 3700.1, 4499.0, 4600.0, 1e300}) {
      EXPECT_TRUE(same_bits(along_x(x, z), finite_x(1000.0, z))) << x << ", " << z;
      EXPECT_TRUE(same_bits(along_z(x, z), finite_z(x, 3000.0))) << x << ", " << z;
      nonzero += along_x(x, z) != 0.0;
    }
  }
  EXPECT_GT(nonzero, 0);
  EXPECT_LT(nonzero, 64);
  // Both radii infinite: the distance is 0 everywhere, so the bump is its amplitude.
  const Bump<2> everywhere{2.5, 1000.0, 3000.0, inf, inf};
  for (const double x : {-1e300, 0.0, 1e300})
    for (const double z : {-1e300, 0.0, 1e300}) EXPECT_EQ(everywhere(x, z), 2.5);
}

TEST(BumpTest, EachCasesBumpIsTheOneOfDocsModelMd) {
  struct Expected {
    CaseName name;
    Bump<2> bump;  // at xlen = 51200 m
  };
  const Expected table[] = {
      {CaseName::thermal, {3.0, 25600.0, 2000.0, 2000.0, 2000.0}},
      {CaseName::collision, {20.0, 25600.0, 2000.0, 2000.0, 2000.0}},
      {CaseName::gravity_waves, {0.01, 6400.0, 1000.0, 500.0, 500.0}},
      {CaseName::density_current, {-20.0, 25600.0, 5000.0, 4000.0, 2000.0}},
      {CaseName::straka, {-15.0, 25600.0, 3000.0, 4000.0, 2000.0}},
  };
  for (const auto& [name, expected] : table) {
    SCOPED_TRACE(to_string(name));
    EXPECT_TRUE(has_bump(name));
    const Bump<2> bump = case_bump(name, 51200.0);
    EXPECT_EQ(bump.amplitude, expected.amplitude);
    EXPECT_EQ(bump.x0, expected.x0);
    EXPECT_EQ(bump.z0, expected.z0);
    EXPECT_EQ(bump.xr, expected.xr);
    EXPECT_EQ(bump.zr, expected.zr);
    // Only gravity_waves has a wave source, and it is the case's bump as given.
    const Bump<2> moved{0.5, 100.0, 200.0, 300.0, inf};
    EXPECT_EQ(gravity_wave_source(name, moved).amplitude, name == CaseName::gravity_waves ? 0.5 : 0.0);
    EXPECT_EQ(gravity_wave_source(name, case_bump(name, 51200.0)).amplitude,
              name == CaseName::gravity_waves ? 0.01 : 0.0);
  }
  for (const CaseName name : {CaseName::injection, CaseName::rest}) {
    EXPECT_FALSE(has_bump(name));
    EXPECT_EQ(case_bump(name, 51200.0).amplitude, 0.0);
  }
  // collision's cold bubble: θ′ −20 K at (xlen/2, 8000 m), radii 2000 m; it follows the warm one.
  const Bump<2> cold = collision_cold_bubble(case_bump(CaseName::collision, 51200.0));
  EXPECT_EQ(cold.amplitude, -20.0);
  EXPECT_EQ(cold.x0, 25600.0);
  EXPECT_EQ(cold.z0, 8000.0);
  EXPECT_EQ(cold.xr, 2000.0);
  EXPECT_EQ(cold.zr, 2000.0);
  const Bump<2> moved_cold = collision_cold_bubble(Bump<2>{7.0, 100.0, 1500.0, 300.0, inf});
  EXPECT_EQ(moved_cold.amplitude, -7.0);
  EXPECT_EQ(moved_cold.x0, 100.0);
  EXPECT_EQ(moved_cold.z0, 7500.0);
  EXPECT_EQ(moved_cold.xr, 300.0);
  EXPECT_EQ(moved_cold.zr, inf);
}

TEST(Bump3dTest, TheCasesBumpsAreTheEllipsoidsOfDocsModelMd) {
  // y₀ = ylen/2, y_r = x_r; thermal a sphere of 2000 m at (xlen/2, ylen/2, 2000 m).
  const Bump<3> thermal = model_bump<3>(case_bump(CaseName::thermal, 20000.0), 16000.0);
  EXPECT_EQ(thermal.y0, 8000.0);
  EXPECT_EQ(thermal.yr, thermal.xr);
  EXPECT_EQ(thermal(10000.0, 8000.0, 2000.0), 3.0);
  EXPECT_EQ(thermal(10000.0, 8000.0 + 2001.0, 2000.0), 0.0);
  EXPECT_NEAR(thermal(10000.0 + 1000.0, 8000.0, 2000.0), thermal(10000.0, 8000.0 + 1000.0, 2000.0), 1e-15);
  // density_current: x_r = y_r = 4000 m, z_r = 2000 m.
  const Bump<3> current = model_bump<3>(case_bump(CaseName::density_current, 20000.0), 20000.0);
  EXPECT_EQ(current.xr, 4000.0);
  EXPECT_EQ(current.yr, 4000.0);
  EXPECT_EQ(current.zr, 2000.0);
  // gravity_waves' source at (xlen/8, ylen/2, 1000 m), radii 500 m.
  const Bump<3> source = model_bump<3>(case_bump(CaseName::gravity_waves, 20000.0), 20000.0);
  EXPECT_EQ(source.x0, 2500.0);
  EXPECT_EQ(source.y0, 10000.0);
  EXPECT_EQ(source.z0, 1000.0);
  EXPECT_EQ(source.yr, 500.0);
  // collision's cold bubble 6000 m above the warm one, of the opposite amplitude.
  const Bump<3> warm = model_bump<3>(case_bump(CaseName::collision, 20000.0), 20000.0);
  const Bump<3> cold = collision_cold_bubble(warm);
  EXPECT_EQ(cold.amplitude, -warm.amplitude);
  EXPECT_EQ(cold.z0, warm.z0 + 6000.0);
  EXPECT_EQ(cold.y0, warm.y0);
}

/// The model in 2 or 3 dimensions (`Dims::value`), for the tests whose assertions hold in both.
using Dimensions = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;

/// The names of the test's dimension: "2d", "3d".
class DimensionName {
 public:
  template <class Dims>
  static std::string GetName(int) {
    return std::to_string(Dims::value) + "d";
  }
};

/// Every cell of the initial state of `spec` in the `Dims`-dimensional model, halos included, as
/// stored [var][k]([j])[i].
template <int Dims>
std::vector<double> initial_state(const RunSpec& spec) {
  const Grid grid(spec.grid);
  const FieldShape<Dims> shape = grid.cell_shape<Dims>();
  std::vector<double> state(shape.size(), 0.0);
  set_initial_state(Stream{}, FieldView<double, Dims>{state.data(), shape}, spec.case_name, configured_bump<Dims>(spec),
                    grid.geometry<Dims>());
  return state;
}

/// Case `name` on nx × nz cells of the default domain; in 3-D 2 rows of 1000 m along y, which
/// every bump of these tests (y₀ = ylen/2, y_r = x_r ≥ 1000 m) reaches.
template <int Dims>
RunSpec case_on(CaseName name, int nx, int nz) {
  RunSpec spec;
  spec.case_name = name;
  spec.grid.nx = nx;
  spec.grid.nz = nz;
  if constexpr (Dims == 3) {
    spec.grid.ny = 2;
    spec.grid.ylen = 2000.0;
  }
  return spec;
}

/// The values docs/model.md gives each case with a bump in its initial state, on the default
/// domain (xlen = 20000 m).
PerturbationSpec documented_values(CaseName name) {
  switch (name) {
    case CaseName::thermal: return {{10000.0, 2000.0}, {2000.0, 2000.0}, 3.0};
    case CaseName::collision: return {{10000.0, 2000.0}, {2000.0, 2000.0}, 20.0};
    case CaseName::density_current: return {{10000.0, 5000.0}, {4000.0, 2000.0}, -20.0};
    case CaseName::straka: return {{10000.0, 3000.0}, {4000.0, 2000.0}, -15.0};
    default: return {};
  }
}

constexpr CaseName bubble_cases[] = {CaseName::thermal, CaseName::collision, CaseName::density_current,
                                     CaseName::straka};

template <class Dims>
class InitialStateTest : public ::testing::Test {};
TYPED_TEST_SUITE(InitialStateTest, Dimensions, DimensionName);

TYPED_TEST(InitialStateTest, TheCasesOwnValuesGivenAsAPerturbationChangeNoBit) {
  constexpr int dims = TypeParam::value;
  for (const CaseName name : bubble_cases) {
    SCOPED_TRACE(to_string(name));
    const RunSpec own = case_on<dims>(name, 40, 20);
    RunSpec given = own;
    given.perturbation = documented_values(name);
    const std::vector<double> state = initial_state<dims>(own);
    EXPECT_TRUE(testing::bitwise_equal(initial_state<dims>(given), state));
    EXPECT_TRUE(std::any_of(state.begin(), state.end(), [](double value) { return value != 0.0; }));
    // Each key alone too.
    for (int key = 0; key < 3; ++key) {
      RunSpec one = own;
      const PerturbationSpec all = documented_values(name);
      if (key == 0) one.perturbation.center = all.center;
      if (key == 1) one.perturbation.radii = all.radii;
      if (key == 2) one.perturbation.amplitude = all.amplitude;
      EXPECT_TRUE(testing::bitwise_equal(initial_state<dims>(one), state)) << "key " << key;
    }
    // And a different value changes the state.
    RunSpec other = given;
    *other.perturbation.amplitude *= 0.5;
    EXPECT_FALSE(testing::bitwise_equal(initial_state<dims>(other), state));
  }
}

TEST(InitialStateRunTest, ARunWithTheCasesOwnValuesGivenIsBitIdentical) {
  RunSpec own = testing::small_case(CaseName::collision, 40, 20, 1.0);
  own.time.sim_time = 6.5 * TimeStepping(1.0, own.grid.xlen / 40, own.grid.zlen / 20, own.time.cfl).dt();
  RunSpec given = own;
  given.perturbation = documented_values(CaseName::collision);
  const std::vector<double> expected = testing::final_state(own, Backend::host, ExecutionMode::eager);
  EXPECT_TRUE(testing::bitwise_equal(testing::final_state(given, Backend::host, ExecutionMode::eager), expected));
  given.perturbation.center = {10250.0, 2000.0};
  EXPECT_FALSE(testing::bitwise_equal(testing::final_state(given, Backend::host, ExecutionMode::eager), expected));
}

/// Moving the centre by m cells (dx = 250 m) moves every variable by m columns, bit for bit.
/// The grid is chosen so that this holds exactly: cell centres (i + ½)·250 are integers, and
/// every quadrature point where the bump is not 0, before and after the move, lies in
/// [8192, 16384) with its centre, where x and so x − x₀ round alike for every shift (the y term
/// of the 3-D distance does not depend on x).
TYPED_TEST(InitialStateTest, MovingTheCentreByWholeCellsMovesTheFieldByThoseCells) {
  constexpr int dims = TypeParam::value;
  constexpr int nx = 80, nz = 40;  // dx = dz = 250 m on 20 km × 10 km
  const FieldShape<dims> shape = Grid(case_on<dims>(CaseName::thermal, nx, nz).grid).template cell_shape<dims>();
  for (const CaseName name : bubble_cases) {
    RunSpec base = case_on<dims>(name, nx, nz);
    base.perturbation.center = {10000.0, name == CaseName::density_current ? 5000.0 : 2500.0};
    base.perturbation.radii = {1000.0, 1500.0};
    const std::vector<double> before = initial_state<dims>(base);
    for (const int m : {4, -3, 1}) {
      SCOPED_TRACE(std::string(to_string(name)) + ", m = " + std::to_string(m));
      RunSpec moved = base;
      moved.perturbation.center[0] += m * 250.0;
      const std::vector<double> after = initial_state<dims>(moved);
      int differences = 0, nonzero = 0;
      for (int v = 0; v < ModelVariables<dims>::count; ++v)
        for (int k = 0; k < nz; ++k)
          for (int j = 0; j < shape.ny; ++j)
            for (int i = 0; i < nx; ++i) {
              const double expected = before[shape.offset(v, k, j, (i - m + nx) % nx)];
              differences += !same_bits(after[shape.offset(v, k, j, i)], expected);
              nonzero += expected != 0.0;
            }
      EXPECT_EQ(differences, 0);
      EXPECT_GT(nonzero, 0);
      EXPECT_FALSE(testing::bitwise_equal(after, before));
    }
  }
}

TYPED_TEST(InitialStateTest, AnInfiniteXRadiusMakesEveryColumnTheSame) {
  constexpr int dims = TypeParam::value;
  for (const CaseName name : bubble_cases) {
    SCOPED_TRACE(to_string(name));
    RunSpec spec = case_on<dims>(name, 40, 20);
    spec.perturbation.radii = {inf, 1500.0};
    const std::vector<double> state = initial_state<dims>(spec);
    const FieldShape<dims> shape = Grid(spec.grid).template cell_shape<dims>();
    const int h = shape.halo, hy = shape.halo_y();
    int differences = 0, nonzero = 0;
    for (int v = 0; v < ModelVariables<dims>::count; ++v)
      for (int k = -h; k < shape.nz + h; ++k)
        for (int j = -hy; j < shape.ny + hy; ++j)
          for (int i = -h; i < shape.nx + h; ++i) {
            differences += !same_bits(state[shape.offset(v, k, j, i)], state[shape.offset(v, k, j, -h)]);
            nonzero += state[shape.offset(v, k, j, i)] != 0.0;
          }
    EXPECT_EQ(differences, 0);
    EXPECT_GT(nonzero, 0);
    // The finite radius it replaces is not uniform: the middle column differs from the first.
    spec.perturbation.radii = {2000.0, 1500.0};
    const std::vector<double> finite = initial_state<dims>(spec);
    int column_differences = 0;
    for (int v = 0; v < ModelVariables<dims>::count; ++v)
      for (int k = 0; k < shape.nz; ++k)
        for (int j = 0; j < shape.ny; ++j)
          column_differences +=
              !same_bits(finite[shape.offset(v, k, j, shape.nx / 2)], finite[shape.offset(v, k, j, 0)]);
    EXPECT_GT(column_differences, 0);
  }
}

using V3 = ModelVariables<3>;
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
    set_initial_state(Stream{}, FieldView<double, 2>{two_d.data(), grid.cell_shape<2>()}, name, bump,
                      grid.geometry<2>());
    CellGeometry<3> geometry{grid.geometry<2>(), grid.dx(), grid.spec().xlen, shape.ny, 0};
    if (!y_uniform) {  // the 2-D x axis is the 3-D y axis
      geometry.dx = 300.0;
      geometry.xlen = 300.0 * n;
      geometry.global_nx = n;
    } else {
      geometry.dy = 300.0;
      geometry.ylen = 300.0 * n;
    }
    set_initial_state(Stream{}, FieldView<double, 3>{three_d.data(), shape}, name, bump3, geometry);
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

class InitialStateUniformInYTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(InitialStateUniformInYTest, UniformInYItIsTheTwoDStateAtEveryJ) {
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

INSTANTIATE_TEST_SUITE_P(Cases, InitialStateUniformInYTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::injection, CaseName::rest,
                                           CaseName::straka),
                         case_label);

class InitialStateUniformInXTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(InitialStateUniformInXTest, ItIsTheTwoDStateOfTheYZPlane) {
  const CaseName name = GetParam();
  const Bump<2> bump = case_bump(name, 20000.0);
  const Bump<3> bump3{bump.amplitude, 0.0, bump.x0, bump.z0, inf, bump.xr, bump.zr};
  const States s(name, bump, bump3, 40, 20, 5, false);
  EXPECT_LE(largest_relative_difference(s, false), 1e-12) << to_string(name);
}

// Not gravity_waves: its wind is along x, so its state is not the 2-D one of the y–z plane.
INSTANTIATE_TEST_SUITE_P(CasesWithoutAnXWind, InitialStateUniformInXTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::density_current,
                                           CaseName::injection, CaseName::rest, CaseName::straka),
                         case_label);

}  // namespace
}  // namespace simapp
