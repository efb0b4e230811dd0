#include "kernels/physics/equation_of_state.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace simapp {
namespace {

using namespace physics;

TEST(EquationOfStateTest, C0MatchesItsDefinition) {
  EXPECT_NEAR(c0, std::pow(rd, gamma) * std::pow(p0, -rd / cv), 1e-13 * c0);
}

TEST(EquationOfStateTest, PressureEqualsIdealGasInPotentialTemperatureForm) {
  // p = C₀(ρθ)^γ  ⇔  p = p₀ (R_d ρθ / p₀)^γ
  for (double rho_theta : {50.0, 300.0, 361.5}) {
    EXPECT_NEAR(pressure(rho_theta), p0 * std::pow(rd * rho_theta / p0, gamma), 1e-11 * p0);
  }
}

TEST(EquationOfStateTest, ReferenceStateGivesReferencePressure) {
  // At p₀ and θ = T = 300 K: ρ = p₀ / (R_d T), so ρθ = p₀ θ / (R_d T) = p₀ / R_d.
  EXPECT_NEAR(pressure(p0 / rd), p0, 1e-9 * p0);
  EXPECT_NEAR(rho_theta_from_pressure(pressure(123.0)), 123.0, 1e-12 * 123.0);
  EXPECT_DOUBLE_EQ(temperature(300.0, p0), 300.0);
}

/// The reference of pressure_change at ρθ_ref, its pressure from the library pow.
PressureReference reference_at(double rho_theta) {
  return {rho_theta, 1.0 / rho_theta, c0 * std::pow(rho_theta, gamma)};
}

TEST(EquationOfStateTest, BinomialCoefficientsOfTheSeriesFollowTheirRecurrence) {
  EXPECT_EQ(binomial_gamma(0), 1.0);
  EXPECT_DOUBLE_EQ(binomial_gamma(1), gamma);
  EXPECT_DOUBLE_EQ(binomial_gamma(2), gamma * (gamma - 1) / 2);
  EXPECT_DOUBLE_EQ(binomial_gamma(3), gamma * (gamma - 1) * (gamma - 2) / 6);
  // The first term left out is below 2⁻⁵⁶ of the sum at the series' limit.
  EXPECT_LT(std::abs(binomial_gamma(9)) * std::pow(series_epsilon_limit, 9),
            std::ldexp(gamma * series_epsilon_limit * (1 - series_epsilon_limit), -56));
}

TEST(EquationOfStateTest, PressureChangeMatchesTheDifferenceOfPowsInsideAndBeyondTheSeries) {
  // p_ref ((1 + ε)^γ − 1) = p_ref expm1(γ log1p(ε)), worked out in long double without
  // cancellation, for |ε| = |δ|/ρθ_ref from 10⁻⁸ to 0.2: inside the series' range and beyond
  // it (exp and log).
  for (double rho_theta : {120.0, 345.0, 390.0}) {
    const PressureReference reference = reference_at(rho_theta);
    for (double epsilon : {1e-8, -3e-6, 1e-4, -2e-3, 0.0099, -0.0155, 0.0157, -0.03, 0.2}) {
      const double delta = epsilon * rho_theta;
      const long double ratio = static_cast<long double>(delta) / rho_theta;
      const long double exact = reference.pressure * std::expm1(static_cast<long double>(gamma) * std::log1p(ratio));
      const double change = pressure_change(delta, reference);
      // Within the series, 5 ulp of the change (2 seen); beyond it, exp and log's few ulp of p
      // (p − p_ref cancels).
      const bool series = std::abs(epsilon) <= series_epsilon_limit;
      const double tolerance = series ? 1e-15 * std::abs(change) : 1e-14 * reference.pressure;
      EXPECT_NEAR(change, static_cast<double>(exact), tolerance) << rho_theta << " " << epsilon;
    }
  }
}

TEST(EquationOfStateTest, PressureChangeIsZeroAtTheReferenceAndContinuousAtTheSeriesLimit) {
  const PressureReference reference = reference_at(345.0);
  EXPECT_EQ(pressure_change(0.0, reference), 0.0);
  // Either side of |ε| = 1/64 the two forms agree to round-off of p.
  const double at_limit = series_epsilon_limit * reference.rho_theta;
  for (double sign : {1.0, -1.0}) {
    const double inside = pressure_change(sign * at_limit, reference);
    const double beyond = pressure_change(std::nextafter(sign * at_limit, sign), reference);
    EXPECT_NEAR(inside, beyond, 1e-14 * reference.pressure);
  }
}

}  // namespace
}  // namespace simapp
