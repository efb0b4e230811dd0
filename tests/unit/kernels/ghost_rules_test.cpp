/// Checks the ghost-cell rules (docs/model.md, "Boundaries") as point functions — periodic
/// sources, free-slip wall ghosts, the injection inflow — and the host fills that apply them
/// to a small field of either model dimension: the two ghost columns or rows get what the
/// rules say, nothing else moves.
#include "kernels/boundary/ghost_rules.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/cases/case_list.hpp"

namespace simapp {
namespace {

TEST(GhostRuleTest, PeriodicGhostColumnsCopyTheInteriorColumnsAtTheOtherSide) {
  constexpr int nx = 5;
  EXPECT_EQ(periodic_source(-2, nx), 3);
  EXPECT_EQ(periodic_source(-1, nx), 4);
  EXPECT_EQ(periodic_source(nx, nx), 0);
  EXPECT_EQ(periodic_source(nx + 1, nx), 1);
}

TEST(GhostRuleTest, APassReadsThePeriodicImageOfAGhostCellOnlyWhereItsSideCopiesOne) {
  constexpr int nx = 5;
  const BoundaryCondition periodic{BoundaryKind::periodic}, inflow{BoundaryKind::inflow};
  const BoundaryCondition exchanged{BoundaryKind::exchanged}, exchanged_inflow{BoundaryKind::exchanged_inflow};
  for (int i = 0; i < nx; ++i) EXPECT_EQ(point_read(i, nx, periodic, periodic), i) << "interior cell " << i;
  EXPECT_EQ(point_read(-2, nx, periodic, exchanged), 3);
  EXPECT_EQ(point_read(-1, nx, inflow, exchanged), 4) << "an inflow side starts from the periodic image";
  EXPECT_EQ(point_read(nx + 1, nx, exchanged, periodic), 1);
  // What a neighbour rank sent lies in the ghost cells themselves.
  EXPECT_EQ(point_read(-2, nx, exchanged, periodic), -2);
  EXPECT_EQ(point_read(-1, nx, exchanged_inflow, periodic), -1);
  EXPECT_EQ(point_read(nx, nx, periodic, exchanged), nx);
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

template <class Dims>
class WallGhostTest : public ::testing::Test {};
TYPED_TEST_SUITE(WallGhostTest, Dimensions, DimensionName);

TYPED_TEST(WallGhostTest, WallGhostStopsVerticalMomentumAndRescalesHorizontalMomentum) {
  using V = ModelVariables<TypeParam::value>;
  // Adjacent ρu = 6 over ρ̄_c = 1.2 is u = 5 m/s; on a ghost row with ρ̄_c = 1.5 that is ρu = 7.5.
  EXPECT_DOUBLE_EQ(wall_ghost<V>(V::umom, 6.0, 1.2, 1.5), 7.5);
  EXPECT_EQ(wall_ghost<V>(V::wmom, -4.0, 1.2, 1.5), 0.0);
  EXPECT_EQ(wall_ghost<V>(V::dens, 0.03, 1.2, 1.5), 0.03);
  EXPECT_EQ(wall_ghost<V>(V::rhot, -2.5, 1.2, 1.5), -2.5);
  if constexpr (TypeParam::value == 3) {
    EXPECT_DOUBLE_EQ(wall_ghost<V>(V::vmom, -6.0, 1.2, 1.5), -7.5);
  }
}

TEST(GhostRuleTest, InflowSetsMomentumAndPotentialTemperatureFromTheTotalDensity) {
  const InflowProfile inflow = injection_inflow;
  // ρ′ = 0.1 over ρ̄_c = 1.1 is ρ = 1.2; ρ̄θ̄_c = 330.
  double q[var::count] = {0.1, 7.0, 8.0, 9.0};
  apply_inflow(q, 1.1, 330.0, inflow);
  EXPECT_EQ(q[var::dens], 0.1);
  EXPECT_EQ(q[var::wmom], 8.0);
  EXPECT_DOUBLE_EQ(q[var::umom], 1.2 * inflow.u);
  EXPECT_NEAR(q[var::rhot], 1.2 * inflow.theta - 330.0, 1e-12 * 1.2 * inflow.theta);
  // The inflow is not at rest and not at the background's θ, so neither can come out unchanged.
  EXPECT_NE(q[var::umom], 7.0);
  EXPECT_NE(q[var::rhot], 9.0);
}

TEST(GhostRuleTest, InflowRowsAreWithinASixteenthOfTheHeightOfThreeQuarters) {
  // zlen = 16 km: rows with |z − 12 km| ≤ 1 km, ends included.
  EXPECT_TRUE(injection_inflow.applies(12000.0, 16000.0));
  EXPECT_TRUE(injection_inflow.applies(11000.0, 16000.0));
  EXPECT_TRUE(injection_inflow.applies(13000.0, 16000.0));
  EXPECT_FALSE(injection_inflow.applies(10999.0, 16000.0));
  EXPECT_FALSE(injection_inflow.applies(13001.0, 16000.0));
  EXPECT_FALSE(injection_inflow.applies(500.0, 16000.0));
}

TEST(GhostRuleTest, InflowRowsAreThoseOfTheDivisionBySixteenOnEveryGrid) {
  // The profile multiplies by 0.0625; the rows are those of |z − 0.75 zlen| ≤ zlen / 16, cell
  // centres of nz rows, on domains whose zlen / 16 is not a round number.
  for (const double zlen : {16000.0, 1000.0, 12345.678, 3.0e4 / 7.0}) {
    for (const int nz : {16, 64, 100, 333}) {
      const double dz = zlen / nz;
      for (int k = 0; k < nz; ++k) {
        const double z = (k + 0.5) * dz;
        const double offset = z - 0.75 * zlen;
        EXPECT_EQ(injection_inflow.applies(z, zlen), std::fabs(offset) <= zlen / 16.0) << zlen << " " << nz << " " << k;
      }
    }
  }
}

/// The boundaries of case `name` in the model of `Dims` dimensions (3-D: y periodic).
template <int Dims>
BoundaryConditions<Dims> boundaries_of(CaseName name) {
  if constexpr (Dims == 3)
    return periodic_in_y(case_boundaries(name));
  else
    return case_boundaries(name);
}

/// A field of the model in `Dims::value` dimensions, nx × nz (3-D: nx × ny × nz) cells with 2
/// ghosts, each interior cell holding a value that names it, and every ghost a sentinel, so that
/// a copy from the wrong cell shows.
template <class Dims>
class HaloFillTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using Vars = ModelVariables<dims>;
  static constexpr int nx = 5, ny = dims == 3 ? 4 : 1, nz = 3, halo = 2;
  static constexpr double sentinel = -999.0;
  static constexpr VarRange all_vars{0, Vars::count};

  HaloFillTest() : data_(shape_.size(), sentinel) {
    for_each_cell([&](int v, int k, int j, int i) {
      if (interior(k, j, i)) field_(v, k, j, i) = cell_value(v, k, j, i);
    });
  }

  /// 1000 v + 100 (k + 2) + (i + 2) + 1 + j / 8: distinct for every cell, ghosts included, and
  /// never 0 (what a wall ghost writes to ρw); in 2-D (j = 0) a whole number.
  static double cell_value(int v, int k, int j, int i) {
    return 1000.0 * v + 100.0 * (k + halo) + (i + halo) + 1.0 + 0.125 * j;
  }
  static bool interior_i(int i) { return i >= 0 && i < nx; }
  static bool interior_j(int j) { return j >= 0 && j < ny; }
  static bool interior_k(int k) { return k >= 0 && k < nz; }
  static bool interior(int k, int j, int i) { return interior_i(i) && interior_j(j) && interior_k(k); }

  /// f(v, k, j, i) for every cell of the padded field (2-D: j = 0).
  template <class F>
  void for_each_cell(const F& f) const {
    const int halo_y = shape_.halo_y();
    for (int v = 0; v < Vars::count; ++v)
      for (int k = -halo; k < nz + halo; ++k)
        for (int j = -halo_y; j < ny + halo_y; ++j)
          for (int i = -halo; i < nx + halo; ++i) f(v, k, j, i);
  }

  /// ρu, and in 3-D ρv: the momenta a wall continues.
  static std::vector<int> horizontal_momenta() {
    if constexpr (dims == 3) return {Vars::umom, Vars::vmom};
    return {Vars::umom};
  }

  /// The directions whose ghost cells are periodic copies: x, and y in 3-D.
  static std::vector<Direction> periodic_directions() {
    if (dims == 3) return {Direction::x, Direction::y};
    return {Direction::x};
  }

  FieldShape<dims> shape_{nx, ny, nz, halo, Vars::count};
  std::vector<double> data_;
  FieldView<double, dims> field_{data_.data(), shape_};
};
TYPED_TEST_SUITE(HaloFillTest, Dimensions, DimensionName);

TYPED_TEST(HaloFillTest, PeriodicFillCopiesTheOppositeColumnsOnInteriorRows) {
  using T = TestFixture;
  for (const Direction direction : T::periodic_directions()) {
    SCOPED_TRACE(direction == Direction::x ? "x" : "y");
    const bool x_pass = direction == Direction::x;
    const int n = x_pass ? T::nx : T::ny;
    std::fill(this->data_.begin(), this->data_.end(), T::sentinel);
    // Give the ghost rows of the other axes values in the interior columns too: a fill that ran
    // over them would copy them into the corners.
    this->for_each_cell([&](int v, int k, int j, int i) {
      if (x_pass ? T::interior_i(i) : T::interior_j(j)) this->field_(v, k, j, i) = T::cell_value(v, k, j, i);
    });
    fill_halos(Stream{}, direction, this->field_, T::all_vars, HydrostaticView{},
               boundaries_of<T::dims>(CaseName::thermal));
    this->for_each_cell([&](int v, int k, int j, int i) {
      SCOPED_TRACE(testing::Message() << "v " << v << " k " << k << " j " << j << " i " << i);
      const int along = x_pass ? i : j;
      const bool across_ghost = !T::interior_k(k) || (x_pass ? !T::interior_j(j) : !T::interior_i(i));
      if (along >= 0 && along < n) {  // the interior columns are untouched
        EXPECT_EQ(this->field_(v, k, j, i), T::cell_value(v, k, j, i));
      } else if (across_ghost) {  // the corners (ghost columns of ghost rows) are not filled
        EXPECT_EQ(this->field_(v, k, j, i), T::sentinel);
      } else {  // ghost −2, −1, n, n + 1 copy interior n − 2, n − 1, 0, 1
        const int source = along == -2 ? n - 2 : along == -1 ? n - 1 : along == n ? 0 : 1;
        EXPECT_EQ(this->field_(v, k, j, i), x_pass ? T::cell_value(v, k, j, source) : T::cell_value(v, k, source, i));
      }
    });
  }
}

TYPED_TEST(HaloFillTest, PeriodicFillOnlyWritesTheRequestedVariables) {
  using T = TestFixture;
  using V = typename T::Vars;
  fill_halos(Stream{}, Direction::x, this->field_, VarRange{V::umom, V::rhot}, HydrostaticView{},
             boundaries_of<T::dims>(CaseName::thermal));
  const FieldView<double, T::dims> field = this->field_;
  for (int k = 0; k < T::nz; ++k)
    for (int j = 0; j < T::ny; ++j) {
      EXPECT_EQ(field(V::dens, k, j, -1), T::sentinel);
      EXPECT_EQ(field(V::umom, k, j, -1), T::cell_value(V::umom, k, j, 4));
      EXPECT_EQ(field(V::wmom, k, j, T::nx), T::cell_value(V::wmom, k, j, 0));
      EXPECT_EQ(field(V::rhot, k, j, T::nx), T::sentinel);
    }
}

/// Background cell densities of rows −2 … nz + 1 (only these are read by the wall fill).
const std::vector<double> wall_density = {1.5, 1.4, 1.25, 1.2, 1.1, 1.0, 0.8};

HydrostaticView wall_background() {
  HydrostaticView view;
  view.density_cell = wall_density.data();
  return view;
}

/// ρ̄_c of row k (index k + halo).
double density_of_row(int k) { return wall_density[static_cast<std::size_t>(k + 2)]; }

TYPED_TEST(HaloFillTest, WallFillMakesBothGhostRowsOfEveryColumnFromTheAdjacentRow) {
  using T = TestFixture;
  using V = typename T::Vars;
  const FieldView<double, T::dims> field = this->field_;
  // Give the x ghost columns of the interior rows values too: the 2-D wall fill covers them, the
  // 3-D one (whose passes read no corner cell) leaves the ghost rows beside them alone.
  this->for_each_cell([&](int v, int k, int j, int i) {
    if (T::interior_k(k) && T::interior_j(j) && !T::interior_i(i)) field(v, k, j, i) = T::cell_value(v, k, j, i);
  });
  fill_halos(Stream{}, Direction::z, field, T::all_vars, wall_background(), boundaries_of<T::dims>(CaseName::thermal));
  this->for_each_cell([&](int v, int k, int j, int i) {
    if (T::interior_k(k) || v != 0) return;  // each ghost cell once, every variable below
    SCOPED_TRACE(testing::Message() << "k " << k << " j " << j << " i " << i);
    const bool filled = T::dims == 2 || (T::interior_i(i) && T::interior_j(j));
    if (!filled) {
      for (int w = 0; w < V::count; ++w) EXPECT_EQ(field(w, k, j, i), T::sentinel) << "variable " << w;
      return;
    }
    const int a = k < 0 ? 0 : T::nz - 1;  // the adjacent interior row
    EXPECT_EQ(field(V::dens, k, j, i), T::cell_value(V::dens, a, j, i));
    EXPECT_EQ(field(V::wmom, k, j, i), 0.0);
    EXPECT_EQ(field(V::rhot, k, j, i), T::cell_value(V::rhot, a, j, i));
    // u (3-D: v too) is continued: ρu / ρ̄_c is the same on the ghost row as on the adjacent row.
    for (const int c : T::horizontal_momenta())
      EXPECT_NEAR(field(c, k, j, i) / density_of_row(k), T::cell_value(c, a, j, i) / density_of_row(a), 1e-12)
          << "variable " << c;
  });
  // Spot values: ρu at (k 0, i 0) is 1203 over ρ̄_c = 1.25, so 1203 · 1.5 / 1.25 = 1443.6 on
  // row −2; ρu at (k 2, i 3) is 1406 over ρ̄_c = 1.1, so 1406 · 0.8 / 1.1 on row 4 (j = 0).
  EXPECT_NEAR(field(V::umom, -2, 0, 0), 1443.6, 1e-10);
  EXPECT_NEAR(field(V::umom, T::nz + 1, 0, 3), 1406.0 * 0.8 / 1.1, 1e-10);
  this->for_each_cell([&](int v, int k, int j, int i) {
    if (T::interior_k(k) && T::interior_j(j)) {
      EXPECT_EQ(field(v, k, j, i), T::cell_value(v, k, j, i));
    }
  });
}

TYPED_TEST(HaloFillTest, WallFillSkipsASideThatHasANeighbour) {
  using T = TestFixture;
  using V = typename T::Vars;
  const FieldView<double, T::dims> field = this->field_;
  BoundaryConditions<T::dims> wall_below = boundaries_of<T::dims>(CaseName::thermal);
  wall_below.z_high = {BoundaryKind::exchanged};
  fill_halos(Stream{}, Direction::z, field, T::all_vars, wall_background(), wall_below);
  this->for_each_cell([&](int v, int k, int j, int i) {
    if (k >= T::nz) {
      EXPECT_EQ(field(v, k, j, i), T::sentinel) << "v " << v << " k " << k << " j " << j << " i " << i;
    }
  });
  EXPECT_EQ(field(V::dens, -1, 0, 2), T::cell_value(V::dens, 0, 0, 2));
  EXPECT_EQ(field(V::wmom, -2, 0, 2), 0.0);

  BoundaryConditions<T::dims> wall_above = boundaries_of<T::dims>(CaseName::thermal);
  wall_above.z_low = {BoundaryKind::exchanged};
  fill_halos(Stream{}, Direction::z, field, T::all_vars, wall_background(), wall_above);
  EXPECT_EQ(field(V::rhot, T::nz, 0, 1), T::cell_value(V::rhot, T::nz - 1, 0, 1));
  EXPECT_EQ(field(V::wmom, T::nz + 1, 0, 1), 0.0);
}

template <class Dims>
class HaloFillInflowTest : public ::testing::Test {};
TYPED_TEST_SUITE(HaloFillInflowTest, Dimensions, DimensionName);

TYPED_TEST(HaloFillInflowTest, InjectionInflowFillsOnlyTheLeftGhostsOfTheInflowRows) {
  constexpr int dims = TypeParam::value;
  using V = ModelVariables<dims>;
  // nz = 16 rows of 1 km in a 16 km column: centres (k + ½) km, so rows 11 and 12 lie within
  // 1 km of 12 km.
  constexpr int nx = 3, ny = dims == 3 ? 2 : 1, nz = 16, halo = 2;
  const FieldShape<dims> shape{nx, ny, nz, halo, V::count};
  std::vector<double> data(shape.size(), 0.5);  // ρ′ = 0.5 everywhere, other variables too
  const FieldView<double, dims> field{data.data(), shape};
  std::vector<double> density_cell(nz + 2 * halo), rho_theta_cell(nz + 2 * halo);
  for (int k = -halo; k < nz + halo; ++k) {
    density_cell[static_cast<std::size_t>(k + halo)] = 1.0 + 0.01 * k;
    rho_theta_cell[static_cast<std::size_t>(k + halo)] = 300.0 + k;
  }
  HydrostaticView background;
  background.density_cell = density_cell.data();
  background.rho_theta_cell = rho_theta_cell.data();
  CellGeometry<dims> geometry;
  geometry.dx = 1000.0;
  geometry.dz = 1000.0;
  geometry.xlen = 3000.0;
  geometry.zlen = 16000.0;
  geometry.global_nx = nx;
  geometry.global_nz = nz;

  const BoundaryConditions<dims> domain = boundaries_of<dims>(CaseName::injection);
  apply_inflow_halos(Stream{}, field, background, geometry, domain);
  const InflowProfile inflow = injection_inflow;
  for (int k = -halo; k < nz + halo; ++k)
    for (int j = -shape.halo_y(); j < ny + shape.halo_y(); ++j)
      for (int i = -halo; i < nx + halo; ++i) {
        SCOPED_TRACE(testing::Message() << "k " << k << " j " << j << " i " << i);
        const bool inflow_cell = (k == 11 || k == 12) && i < 0 && j >= 0 && j < ny;
        const double rho = 0.5 + (1.0 + 0.01 * k);
        EXPECT_EQ(field(V::dens, k, j, i), 0.5);
        EXPECT_EQ(field(V::wmom, k, j, i), 0.5);
        if constexpr (dims == 3) {
          EXPECT_EQ(field(V::vmom, k, j, i), 0.5);
        }
        if (inflow_cell) {
          EXPECT_NEAR(field(V::umom, k, j, i), rho * inflow.u, 1e-12);
          EXPECT_NEAR(field(V::rhot, k, j, i), rho * inflow.theta - (300.0 + k), 1e-10);
        } else {
          EXPECT_EQ(field(V::umom, k, j, i), 0.5);
          EXPECT_EQ(field(V::rhot, k, j, i), 0.5);
        }
      }

  // Received from a neighbour rank after the exchange, the inflow rows are made the same way.
  std::vector<double> received(shape.size(), 0.5);
  BoundaryConditions<dims> left_rank = domain;
  left_rank.x_low = as_exchanged(domain.x_low);
  apply_inflow_halos(Stream{}, FieldView<double, dims>{received.data(), shape}, background, geometry, left_rank);
  EXPECT_EQ(received, data);

  // A rank away from the domain's left side has no inflow.
  std::vector<double> other(shape.size(), 0.5);
  geometry.i_offset = nx;
  BoundaryConditions<dims> other_rank = domain;
  other_rank.x_low = BoundaryCondition{BoundaryKind::exchanged};
  apply_inflow_halos(Stream{}, FieldView<double, dims>{other.data(), shape}, background, geometry, other_rank);
  for (double value : other) EXPECT_EQ(value, 0.5);
}

}  // namespace
}  // namespace simapp
