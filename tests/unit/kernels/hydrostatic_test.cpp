#include <gtest/gtest.h>

#include <cmath>

#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using namespace physics;

TEST(HydrostaticTest, NeutralBackgroundAtTheGroundIsTheReferenceState) {
  const HydrostaticPoint ground = HydrostaticBackground{}.at(0.0);
  EXPECT_DOUBLE_EQ(ground.theta, theta0);
  EXPECT_NEAR(ground.pressure, p0, 1e-9 * p0);
  EXPECT_NEAR(ground.density, p0 / (rd * theta0), 1e-12);  // ideal gas with T = θ at p₀
}

TEST(HydrostaticTest, StratifiedBackgroundHasTheRequestedBruntVaisalaFrequency) {
  const HydrostaticBackground background{0.02};
  const double z = 3000.0, h = 1.0;
  const double dtheta_dz = (background.at(z + h).theta - background.at(z - h).theta) / (2 * h);
  EXPECT_NEAR(gravity / background.at(z).theta * dtheta_dz, 0.02 * 0.02, 1e-9);
}

HydrostaticColumns host_columns(const HydrostaticBackground& background, const CellGeometry<2>& geometry, int nz) {
  const Stream stream{Backend::host, nullptr};
  return HydrostaticProfile(stream, background, geometry, nz).to_host(stream);
}

/// Largest relative error of the discrete balance (p̄_i(k+1) − p̄_i(k)) / dz = −g ρ̄_c(k).
double hydrostatic_imbalance(const HydrostaticBackground& background, int nz) {
  const double zlen = 1.0e4;
  CellGeometry<2> geometry;
  geometry.dz = zlen / nz;
  const HydrostaticColumns columns = host_columns(background, geometry, nz);
  double worst = 0.0;
  for (int k = 0; k < nz; ++k) {
    const double dp_dz = (columns.pressure_face[k + 1] - columns.pressure_face[k]) / geometry.dz;
    const double weight = -gravity * columns.density_cell[k + numerics::halo_width];
    worst = std::max(worst, std::abs(dp_dz - weight) / std::abs(weight));
  }
  return worst;
}

TEST(HydrostaticTest, DiscreteBackgroundsAreInHydrostaticBalance) {
  for (double n : {0.0, 0.02}) {
    const HydrostaticBackground background{n};
    // p̄_i(k+1) − p̄_i(k) = −g ∫ρ̄ dz exactly, and the 3-point Gauss average of ρ̄ is exact to
    // O(dz⁶): what is left is round-off.
    EXPECT_LT(hydrostatic_imbalance(background, 50), 1e-12) << "N = " << n;
    EXPECT_LT(hydrostatic_imbalance(background, 200), 1e-12) << "N = " << n;
  }
}

TEST(HydrostaticTest, CellAveragesIncludeTwoGhostRowsOnEachSide) {
  CellGeometry<2> geometry;
  geometry.dz = 100.0;
  const HydrostaticColumns columns = host_columns(HydrostaticBackground{}, geometry, 10);
  EXPECT_EQ(columns.density_cell.size(), 14u);
  EXPECT_EQ(columns.pressure_face.size(), 11u);
  // Density falls with height, ghost rows included.
  for (std::size_t k = 1; k < columns.density_cell.size(); ++k)
    EXPECT_LT(columns.density_cell[k], columns.density_cell[k - 1]);
  // Neutral: θ̄ = θ₀ at the interfaces.
  for (std::size_t k = 0; k < columns.density_face.size(); ++k)
    EXPECT_NEAR(columns.rho_theta_face[k] / columns.density_face[k], theta0, 1e-12);
}

}  // namespace
}  // namespace simapp
