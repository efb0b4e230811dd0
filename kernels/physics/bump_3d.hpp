#pragma once
/// The 3-D model's bump, an ellipsoid (docs/model.md, "3-D"):
///   L = √(((x − x₀)/x_r)² + ((y − y₀)/y_r)² + ((z − z₀)/z_r)²),  b = A cos²(πL/2) for L ≤ 1, else 0.
/// With y_r = +∞ the y term is exactly 0 and the bump is the 2-D Bump at every y, bit for bit
/// ((a + 0) + c = a + c); with x_r = +∞ it is the 2-D bump of (y, z).
#include <cmath>

#include "kernels/backend/host_device.hpp"
#include "kernels/physics/bump.hpp"

namespace simapp {

struct Bump3d {
  double amplitude = 0.0;
  double x0 = 0.0, y0 = 0.0, z0 = 0.0;  ///< centre, m
  double xr = 1.0, yr = 1.0, zr = 1.0;  ///< radii, m (> 0, or +∞)

  SIMAPP_HOST_DEVICE double operator()(double x, double y, double z) const {
    constexpr double pi = 3.14159265358979323846;
    const double dx = (x - x0) / xr;
    const double dy = (y - y0) / yr;
    const double dz = (z - z0) / zr;
    const double distance = sqrt(dx * dx + dy * dy + dz * dz);
    if (distance > 1.0) return 0.0;
    const double c = cos(pi * distance / 2.0);
    return amplitude * c * c;
  }
};

/// The 2-D bump `xz` at every y (y_r = +∞).
SIMAPP_HOST_DEVICE inline Bump3d uniform_in_y(const Bump& xz) {
  return {xz.amplitude, xz.x0, 0.0, xz.z0, xz.xr, INFINITY, xz.zr};
}

}  // namespace simapp
