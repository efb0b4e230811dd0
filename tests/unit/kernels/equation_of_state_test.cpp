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

}  // namespace
}  // namespace simapp
