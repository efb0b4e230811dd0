/// The density current's measures (io/case/density_current): the front where θ′ crosses
/// −1 K on the lowest row, interpolated between cell centres and measured from the centre,
/// and the extremes, on a snapshot whose values are chosen by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "io/case/density_current.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp::io {
namespace {

/// 8 × 2 cells of 100 m over a background of ρ̄ = 1, ρ̄θ̄ = 300 (θ̄ = 300 K), where the stored
/// (ρθ)′ is θ′ itself on row 0 as given, u = 2i − 7, w = k − 0.5.
Snapshot snapshot_with(const std::vector<double>& theta_row0) {
  Snapshot s;
  s.time = 900.0;
  s.nx = 8;
  s.nz = 2;
  s.dx = s.dz = 100.0;
  s.density_cell = {1.0, 1.0};
  s.rho_theta_cell = {300.0, 300.0};
  s.state.assign(static_cast<std::size_t>(var::count) * 16, 0.0);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 8; ++i) {
      const std::size_t cell = static_cast<std::size_t>(k) * 8 + i;
      s.state[var::umom * 16 + cell] = 2.0 * i - 7.0;
      s.state[var::wmom * 16 + cell] = k - 0.5;
      s.state[var::rhot * 16 + cell] = k == 0 ? theta_row0[static_cast<std::size_t>(i)] : 0.0;
    }
  return s;
}

TEST(DensityCurrentTest, FrontIsTheOutermostMinusOneKelvinCrossingFromTheCentre) {
  // Centres at 50, 150, …, 750 m; the centre line at 400 m. From the right: −0.5 at 650 m is
  // above −1, −2 at 550 m below: the crossing is 1/1.5 of the way from 550 to 650 m.
  const DensityCurrentMeasures m = density_current_measures(snapshot_with({0, -3, -5, -5, -4, -2, -0.5, 0}));
  EXPECT_NEAR(m.front, 550.0 + 100.0 / 1.5 - 400.0, 1e-9);
  EXPECT_NEAR(m.theta_min, -5.0, 1e-12);
  EXPECT_NEAR(m.theta_max, 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.u_min, -7.0);
  EXPECT_DOUBLE_EQ(m.u_max, 7.0);
  EXPECT_DOUBLE_EQ(m.w_min, -0.5);
  EXPECT_DOUBLE_EQ(m.w_max, 0.5);
  EXPECT_EQ(m.time, 900.0);
}

TEST(DensityCurrentTest, NoColdAirOnTheGroundRightOfTheCentreHasNoFront) {
  const DensityCurrentMeasures m = density_current_measures(snapshot_with({-3, -3, -3, -3, -0.5, 0, 0, 0}));
  EXPECT_TRUE(std::isnan(m.front));
  EXPECT_TRUE(density_current_json(m)["front_m"].is_null());
}

}  // namespace
}  // namespace simapp::io
