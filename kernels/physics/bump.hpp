#pragma once
/// The bump every case perturbation is made of (docs/model.md, "Initial state"):
///   L = √(((x − x₀)/x_r)² + ((z − z₀)/z_r)²),  b = A cos²(πL/2) for L ≤ 1, else 0.
/// A radius may be +∞: (x − x₀)/∞ is ±0 for every finite x (IEEE 754), so its term is exactly
/// 0 and the bump is uniform along that axis.
#include <cmath>

#include "kernels/backend/host_device.hpp"

namespace simapp {

struct Bump {
  double amplitude = 0.0;
  double x0 = 0.0, z0 = 0.0;  ///< centre, m
  double xr = 1.0, zr = 1.0;  ///< radii, m (> 0, or +∞)

  SIMAPP_HOST_DEVICE double operator()(double x, double z) const {
    constexpr double pi = 3.14159265358979323846;
    const double dx = (x - x0) / xr;
    const double dz = (z - z0) / zr;
    const double distance = sqrt(dx * dx + dz * dz);
    if (distance > 1.0) return 0.0;
    const double c = cos(pi * distance / 2.0);
    return amplitude * c * c;
  }
};

}  // namespace simapp
