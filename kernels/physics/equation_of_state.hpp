#pragma once
/// Equation of state of dry air in potential-temperature form: p = C₀ (ρθ)^γ.
#include <cmath>

#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp::physics {

/// p = C₀ (ρθ)^γ = C₀ exp(γ ln ρθ), Pa (ρθ > 0). exp and log take a GPU about a third of the
/// instructions of a general pow, which is a quarter of a stage kernel's; the result is within
/// a few ulp of pow's.
SIMAPP_HOST_DEVICE inline double pressure(double rho_theta) { return c0 * exp(gamma * log(rho_theta)); }

/// ρθ = (p / C₀)^(1/γ): the inverse of `pressure`.
SIMAPP_HOST_DEVICE inline double rho_theta_from_pressure(double p) { return pow(p / c0, 1.0 / gamma); }

/// T = θ (p / p₀)^(R_d / c_p), K.
SIMAPP_HOST_DEVICE inline double temperature(double theta, double p) { return theta * pow(p / p0, rd / cp); }

}  // namespace simapp::physics
