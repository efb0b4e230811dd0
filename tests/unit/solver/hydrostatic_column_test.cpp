/// The soundings and their hydrostatic integration (solver/column/), against independent
/// expectations: the analytic neutral background, centred differences of the integrated
/// pressure, the published sounding formulas, and the moist adiabat's differential form.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "solver/column/column_initial_state.hpp"
#include "solver/column/hydrostatic_column.hpp"
#include "solver/column/soundings.hpp"

namespace simapp {
namespace {

/// A dry column of constant θ₀ has the analytic neutral background's pressure (Exner function
/// π = 1 − g z/(c_p θ₀)) and density.
TEST(HydrostaticColumnTest, ADryNeutralColumnIsTheAnalyticNeutralBackground) {
  const Sounding neutral = [](double, double) { return ColumnAir{physics::theta0, 0.0, 0.0}; };
  const std::vector<double> heights{-300.0, 0.0, 1234.5, 5000.0, 10000.0, 15000.0};
  const std::vector<ColumnPoint> points = integrate_hydrostatic(neutral, 0.0, physics::p0, heights);
  for (std::size_t n = 0; n < heights.size(); ++n) {
    const HydrostaticPoint exact = HydrostaticBackground{0.0}.at(heights[n]);
    EXPECT_NEAR(points[n].pressure, exact.pressure, 1e-9 * exact.pressure) << heights[n];
    EXPECT_NEAR(points[n].density, exact.density, 1e-9 * exact.density) << heights[n];
  }
}

/// dp/dz = −ρ g at every height of the supercell's moist column, by centred differences, and the
/// integration from another known point (downwards from the top) finds the same column.
TEST(HydrostaticColumnTest, TheSupercellColumnIsHydrostaticAndTheSameFromEitherEnd) {
  const Sounding sounding = supercell_sounding();
  constexpr double h = 0.5;
  for (const double z : {100.0, 2500.0, 5000.0, 11000.0, 14000.0, 19000.0}) {
    const std::vector<double> heights{z - h, z, z + h};
    const std::vector<ColumnPoint> p = integrate_hydrostatic(sounding, 0.0, 1.0e5, heights);
    const double gradient = (p[2].pressure - p[0].pressure) / (2 * h);
    EXPECT_NEAR(gradient, -p[1].density * physics::gravity, 1e-6 * p[1].density * physics::gravity) << z;
    EXPECT_GT(p[1].vapour_density, 0.0);
  }
  const std::vector<double> ends{0.0, 20000.0};
  const std::vector<ColumnPoint> up = integrate_hydrostatic(sounding, 0.0, 1.0e5, ends);
  const std::vector<ColumnPoint> down = integrate_hydrostatic(sounding, 20000.0, up[1].pressure, ends);
  EXPECT_NEAR(down[0].pressure, 1.0e5, 1e-7 * 1.0e5);
}

/// DCMIP2016's formulas (Klemp et al. 2015): θ, relative humidity with the 14 g/kg cap, and the
/// wind shear with its cubic blend, continuous at z_s ± 1 km.
TEST(HydrostaticColumnTest, TheSupercellSoundingIsDcmip2016s) {
  const Sounding sounding = supercell_sounding();
  EXPECT_DOUBLE_EQ(sounding(0.0, 1.0e5).theta, 300.0);
  EXPECT_DOUBLE_EQ(sounding(0.0, 1.0e5).vapour, 0.014) << "q_vs(300 K, 1000 hPa) > 14 g/kg: capped, H = 1";
  EXPECT_NEAR(sounding(12000.0, 2.0e4).theta, 343.0, 1e-12);
  EXPECT_NEAR(sounding(13000.0, 2.0e4).theta, 343.0 * std::exp(9.8 * 1000.0 / (1004.0 * 213.0)), 1e-9);
  const double t = physics::temperature(sounding(6000.0, 5.0e4).theta, 5.0e4);
  const double expected =
      (1.0 - 0.75 * std::pow(0.5, 1.25)) * 380.0 / 5.0e4 * std::exp(17.27 * (t - 273.0) / (t - 36.0));
  EXPECT_NEAR(sounding(6000.0, 5.0e4).vapour, expected, 1e-15);
  EXPECT_DOUBLE_EQ(supercell_wind(0.0), -15.0);
  EXPECT_NEAR(supercell_wind(4000.0), supercell_wind(4000.0 - 1e-9), 1e-9);
  EXPECT_NEAR(supercell_wind(4000.0), 9.0, 1e-12);
  EXPECT_NEAR(supercell_wind(6000.0 - 1e-9), 15.0, 1e-9);
  EXPECT_DOUBLE_EQ(supercell_wind(9000.0), 15.0);
  EXPECT_DOUBLE_EQ(sounding(3000.0, 7.0e4).u, supercell_wind(3000.0));
}

/// Bryan & Fritsch's moist-neutral column: saturated with its total water, θ_e = 320 K at the
/// ground, and between two close pressures c_p Δθ_d/θ_d = −l_v Δq_v/T (the saturation
/// adjustment's heating), by finite differences of the sounding itself.
TEST(HydrostaticColumnTest, TheMoistNeutralColumnFollowsTheModelsReversibleAdiabat) {
  const Sounding sounding = moist_neutral_sounding(320.0, 0.02, 1.0e5);
  const ColumnAir ground = sounding(0.0, 1.0e5);
  const double t0 = physics::temperature(ground.theta, 1.0e5);
  EXPECT_NEAR(ground.theta * std::exp(physics::lv * ground.vapour / (physics::cp * t0)), 320.0, 1e-9);
  EXPECT_NEAR(ground.vapour, saturation_vapour(1.0e5, t0), 1e-15);
  for (const double p : {95000.0, 80000.0, 60000.0, 40000.0}) {
    const ColumnAir a = sounding(0.0, p), b = sounding(0.0, p - 100.0);
    EXPECT_NEAR(a.vapour + a.cloud, 0.02, 1e-16);
    EXPECT_NEAR(a.vapour, saturation_vapour(p, physics::temperature(a.theta, p)), 1e-15);
    const double t = physics::temperature(0.5 * (a.theta + b.theta), p - 50.0);
    const double heating = physics::cp * (b.theta - a.theta) / (0.5 * (a.theta + b.theta));
    const double condensation = -physics::lv * (b.vapour - a.vapour) / t;
    EXPECT_NEAR(heating, condensation, 1e-4 * std::abs(condensation)) << p;
    EXPECT_GT(b.theta, a.theta) << "condensation warms the rising parcel";
  }
}

/// A file's sounding: linear in height between levels, the surface's values at the ground.
TEST(HydrostaticColumnTest, AFilesSoundingIsInterpolatedLinearlyInHeight) {
  InputSounding input{1.0e5, 300.0, 0.014, {{1000.0, 302.0, 0.010, 5.0, -1.0}, {3000.0, 310.0, 0.004, 9.0, 1.0}}};
  const Sounding sounding = sounding_of(input);
  EXPECT_DOUBLE_EQ(sounding(0.0, 1.0e5).theta, 300.0);
  EXPECT_DOUBLE_EQ(sounding(500.0, 1.0e5).theta, 301.0);
  EXPECT_DOUBLE_EQ(sounding(2000.0, 1.0e5).vapour, 0.007);
  EXPECT_DOUBLE_EQ(sounding(2000.0, 1.0e5).u, 7.0);
  EXPECT_DOUBLE_EQ(sounding(5000.0, 1.0e5).theta, 310.0);
  EXPECT_DOUBLE_EQ(sounding(-50.0, 1.0e5).vapour, 0.014);
}

/// The moist bubble's warming keeps the total water and saturation at the background's pressure
/// and raises θ_ρ by Δ/θ₀; ρθ (and so p) is unchanged and the air is lighter.
TEST(HydrostaticColumnTest, ASaturatedWarmingKeepsTheWaterAndThePressure) {
  const Sounding sounding = moist_neutral_sounding(320.0, 0.02, 1.0e5);
  const std::vector<double> heights{2000.0};
  const ColumnPoint point = integrate_hydrostatic(sounding, 0.0, 1.0e5, heights)[0];
  const ColumnAir air = sounding(2000.0, point.pressure);
  PointPerturbation warming;
  warming.saturated_warming = 2.0;
  const ColumnPoint warm = perturbed_point(air, point, warming);
  const double q_v = warm.vapour_density / warm.dry_density, q_c = warm.cloud_density / warm.dry_density;
  EXPECT_NEAR(q_v + q_c, 0.02, 1e-15);
  EXPECT_NEAR(q_v, saturation_vapour(point.pressure, warm.temperature), 1e-15);
  const auto theta_rho = [](const ColumnPoint& p, double vapour) {
    return p.temperature / std::pow(p.pressure / physics::p0, physics::rd / physics::cp) *
           (1.0 + vapour * physics::rv / physics::rd) / 1.02;
  };
  EXPECT_NEAR(theta_rho(warm, q_v), theta_rho(point, air.vapour) * (1.0 + 2.0 / 300.0), 1e-10);
  EXPECT_EQ(warm.rho_theta, point.rho_theta);
  EXPECT_LT(warm.density, point.density);
}

}  // namespace
}  // namespace simapp
