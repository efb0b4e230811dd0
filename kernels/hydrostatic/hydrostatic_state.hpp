#pragma once
/// Hydrostatic backgrounds that depend on z only (docs/model.md, "Hydrostatic backgrounds").
///   neutral:    θ̄ = θ₀,                 π = 1 − g z / (c_p θ₀)
///   stratified: θ̄ = θ₀ exp(N² z / g),   π = 1 − g² / (c_p N²) · (θ̄ − θ₀) / (θ̄ θ₀)
/// then p̄ = p₀ π^(c_p/R_d), ρ̄θ̄ = (p̄ / C₀)^(1/γ), ρ̄ = ρ̄θ̄ / θ̄.
#include <cmath>

#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"

namespace simapp {

/// Background at one height.
struct HydrostaticPoint {
  double density;   ///< ρ̄, kg m⁻³
  double theta;     ///< θ̄, K
  double pressure;  ///< p̄, Pa
};

/// The background a case stands on: neutral (constant θ) or constant Brunt–Väisälä N.
struct HydrostaticBackground {
  double brunt_vaisala = 0.0;  ///< N, s⁻¹ (0: neutral)

  SIMAPP_HOST_DEVICE HydrostaticPoint at(double z) const {
    using namespace physics;
    double theta = theta0;
    double exner = 1.0 - gravity * z / (cp * theta0);
    if (brunt_vaisala != 0.0) {
      const double n2 = brunt_vaisala * brunt_vaisala;
      theta = theta0 * exp(n2 * z / gravity);
      exner = 1.0 - gravity * gravity / (cp * n2) * (theta - theta0) / (theta * theta0);
    }
    const double p = p0 * pow(exner, cp / rd);
    const double rho_theta = rho_theta_from_pressure(p);
    return {rho_theta / theta, theta, p};
  }
};

}  // namespace simapp
