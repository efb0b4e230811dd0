/// Checks the ghost-cell rules (docs/model.md, "Boundaries") as point functions — periodic
/// sources, free-slip wall ghosts, the injection inflow — and the host fills that apply them
/// to a small field: the two ghost columns or rows get what the rules say, nothing else moves.
#include "kernels/boundary/ghost_rules.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"

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

TEST(GhostRuleTest, WallGhostStopsVerticalMomentumAndRescalesHorizontalMomentum) {
  // Adjacent ρu = 6 over ρ̄_c = 1.2 is u = 5 m/s; on a ghost row with ρ̄_c = 1.5 that is ρu = 7.5.
  EXPECT_DOUBLE_EQ(wall_ghost(var::umom, 6.0, 1.2, 1.5), 7.5);
  EXPECT_EQ(wall_ghost(var::wmom, -4.0, 1.2, 1.5), 0.0);
  EXPECT_EQ(wall_ghost(var::dens, 0.03, 1.2, 1.5), 0.03);
  EXPECT_EQ(wall_ghost(var::rhot, -2.5, 1.2, 1.5), -2.5);
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

/// A 4-variable field of nx × nz cells with 2 ghosts, each interior cell holding a value that
/// names it, and every ghost a sentinel, so that a copy from the wrong cell shows.
class HaloFillTest : public ::testing::Test {
 protected:
  static constexpr int nx = 5, nz = 3, halo = 2;
  static constexpr double sentinel = -999.0;

  HaloFillTest() : data_(FieldShape<2>{nx, 1, nz, halo, var::count}.size(), sentinel) {
    field_.data = data_.data();
    field_.shape = FieldShape<2>{nx, 1, nz, halo, var::count};
    for (int v = 0; v < var::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i) field_(v, k, i) = cell_value(v, k, i);
  }

  /// 1000 v + 100 (k + 2) + (i + 2) + 1: distinct for every cell, ghosts included, and never 0
  /// (what a wall ghost writes to ρw).
  static double cell_value(int v, int k, int i) { return 1000.0 * v + 100.0 * (k + halo) + (i + halo) + 1.0; }

  std::vector<double> data_;
  FieldView<double, 2> field_;
};

TEST_F(HaloFillTest, PeriodicFillCopiesTheOppositeColumnsOnInteriorRows) {
  // Give the z ghost rows values in the interior columns too: a fill that ran over the ghost
  // rows would copy them into the corners.
  for (int v = 0; v < var::count; ++v)
    for (int k : {-2, -1, nz, nz + 1})
      for (int i = 0; i < nx; ++i) field_(v, k, i) = cell_value(v, k, i);
  fill_periodic_x_halos(Stream{}, field_, VarRange{}, case_boundaries(CaseName::thermal));
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < nz; ++k) {
      SCOPED_TRACE(testing::Message() << "v " << v << " k " << k);
      EXPECT_EQ(field_(v, k, -2), cell_value(v, k, 3));
      EXPECT_EQ(field_(v, k, -1), cell_value(v, k, 4));
      EXPECT_EQ(field_(v, k, nx), cell_value(v, k, 0));
      EXPECT_EQ(field_(v, k, nx + 1), cell_value(v, k, 1));
    }
  // The interior columns are untouched and the corners (ghost columns of ghost rows) are not
  // filled.
  for (int v = 0; v < var::count; ++v)
    for (int k = -halo; k < nz + halo; ++k)
      for (int i = -halo; i < nx + halo; ++i) {
        SCOPED_TRACE(testing::Message() << "v " << v << " k " << k << " i " << i);
        if (i >= 0 && i < nx) {
          EXPECT_EQ(field_(v, k, i), cell_value(v, k, i));
        } else if (k < 0 || k >= nz) {
          EXPECT_EQ(field_(v, k, i), sentinel);
        }
      }
}

TEST_F(HaloFillTest, PeriodicFillOnlyWritesTheRequestedVariables) {
  fill_periodic_x_halos(Stream{}, field_, VarRange{var::umom, var::rhot}, case_boundaries(CaseName::thermal));
  for (int k = 0; k < nz; ++k) {
    EXPECT_EQ(field_(var::dens, k, -1), sentinel);
    EXPECT_EQ(field_(var::umom, k, -1), cell_value(var::umom, k, 4));
    EXPECT_EQ(field_(var::wmom, k, nx), cell_value(var::wmom, k, 0));
    EXPECT_EQ(field_(var::rhot, k, nx), sentinel);
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

TEST_F(HaloFillTest, WallFillMakesBothGhostRowsOfEveryColumnFromTheAdjacentRow) {
  // Give the x ghost columns of the interior rows values too: the wall fill covers them.
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < nz; ++k)
      for (int i : {-2, -1, nx, nx + 1}) field_(v, k, i) = cell_value(v, k, i);
  fill_wall_z_halos(Stream{}, field_, VarRange{}, wall_background(), case_boundaries(CaseName::thermal));
  for (int i = -halo; i < nx + halo; ++i)
    for (int k : {-2, -1, nz, nz + 1}) {
      const int a = k < 0 ? 0 : nz - 1;  // the adjacent interior row
      SCOPED_TRACE(testing::Message() << "k " << k << " i " << i);
      EXPECT_EQ(field_(var::dens, k, i), cell_value(var::dens, a, i));
      EXPECT_EQ(field_(var::wmom, k, i), 0.0);
      EXPECT_EQ(field_(var::rhot, k, i), cell_value(var::rhot, a, i));
      // u is continued: ρu / ρ̄_c is the same on the ghost row as on the adjacent row.
      EXPECT_NEAR(field_(var::umom, k, i) / density_of_row(k), cell_value(var::umom, a, i) / density_of_row(a), 1e-12);
    }
  // Spot values: ρu at (k 0, i 0) is 1203 over ρ̄_c = 1.25, so 1203 · 1.5 / 1.25 = 1443.6 on
  // row −2; ρu at (k 2, i 3) is 1406 over ρ̄_c = 1.1, so 1406 · 0.8 / 1.1 on row 4.
  EXPECT_NEAR(field_(var::umom, -2, 0), 1443.6, 1e-10);
  EXPECT_NEAR(field_(var::umom, nz + 1, 3), 1406.0 * 0.8 / 1.1, 1e-10);
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < nz; ++k)
      for (int i = -halo; i < nx + halo; ++i) EXPECT_EQ(field_(v, k, i), cell_value(v, k, i));
}

TEST_F(HaloFillTest, WallFillSkipsASideThatHasANeighbour) {
  BoundaryConditions<2> wall_below = case_boundaries(CaseName::thermal);
  wall_below.z_high = {BoundaryKind::exchanged};
  fill_wall_z_halos(Stream{}, field_, VarRange{}, wall_background(), wall_below);
  for (int v = 0; v < var::count; ++v)
    for (int i = -halo; i < nx + halo; ++i) {
      EXPECT_EQ(field_(v, nz, i), sentinel);
      EXPECT_EQ(field_(v, nz + 1, i), sentinel);
    }
  EXPECT_EQ(field_(var::dens, -1, 2), cell_value(var::dens, 0, 2));
  EXPECT_EQ(field_(var::wmom, -2, 2), 0.0);

  BoundaryConditions<2> wall_above = case_boundaries(CaseName::thermal);
  wall_above.z_low = {BoundaryKind::exchanged};
  fill_wall_z_halos(Stream{}, field_, VarRange{}, wall_background(), wall_above);
  EXPECT_EQ(field_(var::rhot, nz, 1), cell_value(var::rhot, nz - 1, 1));
  EXPECT_EQ(field_(var::wmom, nz + 1, 1), 0.0);
}

TEST(HaloFillInflowTest, InjectionInflowFillsOnlyTheLeftGhostsOfTheInflowRows) {
  // nz = 16 rows of 1 km in a 16 km column: centres (k + ½) km, so rows 11 and 12 lie within
  // 1 km of 12 km.
  constexpr int nx = 3, nz = 16, halo = 2;
  const FieldShape<2> shape{nx, 1, nz, halo, var::count};
  std::vector<double> data(shape.size(), 0.5);  // ρ′ = 0.5 everywhere, other variables too
  const FieldView<double, 2> field{data.data(), shape};
  std::vector<double> density_cell(nz + 2 * halo), rho_theta_cell(nz + 2 * halo);
  for (int k = -halo; k < nz + halo; ++k) {
    density_cell[static_cast<std::size_t>(k + halo)] = 1.0 + 0.01 * k;
    rho_theta_cell[static_cast<std::size_t>(k + halo)] = 300.0 + k;
  }
  HydrostaticView background;
  background.density_cell = density_cell.data();
  background.rho_theta_cell = rho_theta_cell.data();
  CellGeometry<2> geometry;
  geometry.dx = 1000.0;
  geometry.dz = 1000.0;
  geometry.xlen = 3000.0;
  geometry.zlen = 16000.0;
  geometry.global_nx = nx;
  geometry.global_nz = nz;

  const BoundaryConditions<2> domain = case_boundaries(CaseName::injection);
  apply_inflow_halos(Stream{}, field, background, geometry, domain);
  const InflowProfile inflow = injection_inflow;
  for (int k = -halo; k < nz + halo; ++k)
    for (int i = -halo; i < nx + halo; ++i) {
      SCOPED_TRACE(testing::Message() << "k " << k << " i " << i);
      const bool inflow_cell = (k == 11 || k == 12) && i < 0;
      const double rho = 0.5 + (1.0 + 0.01 * k);
      EXPECT_EQ(field(var::dens, k, i), 0.5);
      EXPECT_EQ(field(var::wmom, k, i), 0.5);
      if (inflow_cell) {
        EXPECT_NEAR(field(var::umom, k, i), rho * inflow.u, 1e-12);
        EXPECT_NEAR(field(var::rhot, k, i), rho * inflow.theta - (300.0 + k), 1e-10);
      } else {
        EXPECT_EQ(field(var::umom, k, i), 0.5);
        EXPECT_EQ(field(var::rhot, k, i), 0.5);
      }
    }

  // Received from a neighbour rank after the exchange, the inflow rows are made the same way.
  std::vector<double> received(shape.size(), 0.5);
  BoundaryConditions<2> left_rank = domain;
  left_rank.x_low = as_exchanged(domain.x_low);
  apply_inflow_halos(Stream{}, FieldView<double, 2>{received.data(), shape}, background, geometry, left_rank);
  EXPECT_EQ(received, data);

  // A rank away from the domain's left side has no inflow.
  std::vector<double> other(shape.size(), 0.5);
  geometry.i_offset = nx;
  BoundaryConditions<2> other_rank = domain;
  other_rank.x_low = BoundaryCondition{BoundaryKind::exchanged};
  apply_inflow_halos(Stream{}, FieldView<double, 2>{other.data(), shape}, background, geometry, other_rank);
  for (double value : other) EXPECT_EQ(value, 0.5);
}

}  // namespace
}  // namespace simapp
