/// The case's bump (docs/model.md, "Initial state") and the initial state made of it: an
/// infinite radius makes the bump uniform along its axis, the case's own values given as
/// perturbation.* change no bit, and moving the centre by whole cells moves the field by them.
#include "kernels/initial_conditions/initial_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/initial_conditions/case_profile.hpp"
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

/// Every cell of the initial state of `spec`, halos included, as stored [var][k][i].
std::vector<double> initial_state(const RunSpec& spec) {
  const Grid grid(spec.grid);
  const FieldShape<2> shape = grid.cell_shape<2>();
  std::vector<double> state(shape.size(), 0.0);
  set_initial_state(Stream{}, FieldView<double, 2>{state.data(), shape}, spec.case_name, configured_bump(spec),
                    grid.geometry<2>());
  return state;
}

RunSpec case_on(CaseName name, int nx, int nz) {
  RunSpec spec;
  spec.case_name = name;
  spec.grid.nx = nx;
  spec.grid.nz = nz;
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

TEST(InitialStateTest, TheCasesOwnValuesGivenAsAPerturbationChangeNoBit) {
  for (const CaseName name : bubble_cases) {
    SCOPED_TRACE(to_string(name));
    const RunSpec own = case_on(name, 40, 20);
    RunSpec given = own;
    given.perturbation = documented_values(name);
    const std::vector<double> state = initial_state(own);
    EXPECT_TRUE(testing::bitwise_equal(initial_state(given), state));
    EXPECT_TRUE(std::any_of(state.begin(), state.end(), [](double value) { return value != 0.0; }));
    // Each key alone too.
    for (int key = 0; key < 3; ++key) {
      RunSpec one = own;
      const PerturbationSpec all = documented_values(name);
      if (key == 0) one.perturbation.center = all.center;
      if (key == 1) one.perturbation.radii = all.radii;
      if (key == 2) one.perturbation.amplitude = all.amplitude;
      EXPECT_TRUE(testing::bitwise_equal(initial_state(one), state)) << "key " << key;
    }
    // And a different value changes the state.
    RunSpec other = given;
    *other.perturbation.amplitude *= 0.5;
    EXPECT_FALSE(testing::bitwise_equal(initial_state(other), state));
  }
}

TEST(InitialStateTest, ARunWithTheCasesOwnValuesGivenIsBitIdentical) {
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
/// [8192, 16384) with its centre, where x and so x − x₀ round alike for every shift.
TEST(InitialStateTest, MovingTheCentreByWholeCellsMovesTheFieldByThoseCells) {
  constexpr int nx = 80, nz = 40;  // dx = dz = 250 m on 20 km × 10 km
  const FieldShape<2> shape = Grid(case_on(CaseName::thermal, nx, nz).grid).cell_shape<2>();
  for (const CaseName name : bubble_cases) {
    RunSpec base = case_on(name, nx, nz);
    base.perturbation.center = {10000.0, name == CaseName::density_current ? 5000.0 : 2500.0};
    base.perturbation.radii = {1000.0, 1500.0};
    const std::vector<double> before = initial_state(base);
    for (const int m : {4, -3, 1}) {
      SCOPED_TRACE(std::string(to_string(name)) + ", m = " + std::to_string(m));
      RunSpec moved = base;
      moved.perturbation.center[0] += m * 250.0;
      const std::vector<double> after = initial_state(moved);
      int differences = 0, nonzero = 0;
      for (int v = 0; v < var::count; ++v)
        for (int k = 0; k < nz; ++k)
          for (int i = 0; i < nx; ++i) {
            const double expected = before[shape.offset(v, k, (i - m + nx) % nx)];
            differences += !same_bits(after[shape.offset(v, k, i)], expected);
            nonzero += expected != 0.0;
          }
      EXPECT_EQ(differences, 0);
      EXPECT_GT(nonzero, 0);
      EXPECT_FALSE(testing::bitwise_equal(after, before));
    }
  }
}

TEST(InitialStateTest, AnInfiniteXRadiusMakesEveryColumnTheSame) {
  for (const CaseName name : bubble_cases) {
    SCOPED_TRACE(to_string(name));
    RunSpec spec = case_on(name, 40, 20);
    spec.perturbation.radii = {inf, 1500.0};
    const std::vector<double> state = initial_state(spec);
    const FieldShape<2> shape = Grid(spec.grid).cell_shape<2>();
    const int h = shape.halo;
    int differences = 0, nonzero = 0;
    for (int v = 0; v < var::count; ++v)
      for (int k = -h; k < shape.nz + h; ++k)
        for (int i = -h; i < shape.nx + h; ++i) {
          differences += !same_bits(state[shape.offset(v, k, i)], state[shape.offset(v, k, -h)]);
          nonzero += state[shape.offset(v, k, i)] != 0.0;
        }
    EXPECT_EQ(differences, 0);
    EXPECT_GT(nonzero, 0);
    // The finite radius it replaces is not uniform: the middle column differs from the first.
    spec.perturbation.radii = {2000.0, 1500.0};
    const std::vector<double> finite = initial_state(spec);
    int column_differences = 0;
    for (int v = 0; v < var::count; ++v)
      for (int k = 0; k < shape.nz; ++k)
        column_differences += !same_bits(finite[shape.offset(v, k, shape.nx / 2)], finite[shape.offset(v, k, 0)]);
    EXPECT_GT(column_differences, 0);
  }
}

}  // namespace
}  // namespace simapp
