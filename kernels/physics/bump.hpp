#pragma once
/// The bump every case perturbation is made of (docs/model.md, "Initial state"), an ellipse in
/// the 2-D model and an ellipsoid in 3-D:
///   L = √(((x − x₀)/x_r)² (+ ((y − y₀)/y_r)²) + ((z − z₀)/z_r)²),  b = A cos²(πL/2) for L ≤ 1, else 0.
/// A radius may be +∞: (x − x₀)/∞ is ±0 for every finite x (IEEE 754), so its term is exactly
/// 0 and the bump is uniform along that axis; with y_r = +∞ the 3-D bump is the 2-D one at every
/// y, bit for bit ((a + 0) + c = a + c), with x_r = +∞ the 2-D bump of (y, z).
#include <cmath>

#include "kernels/backend/host_device.hpp"

namespace simapp {

template <int Dims>
struct Bump;

template <>
struct Bump<2> {
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

template <>
struct Bump<3> {
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
SIMAPP_HOST_DEVICE inline Bump<3> uniform_in_y(const Bump<2>& xz) {
  return {xz.amplitude, xz.x0, 0.0, xz.z0, xz.xr, INFINITY, xz.zr};
}

/// The bump of the `Dims`-dimensional model made of the x–z bump `xz` (a case's, case_bump), in a
/// domain `ylen` deep: `xz` itself in 2-D; in 3-D the ellipsoid centred at y = ylen/2 with
/// y_r = x_r (thermal and collision: spheres).
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> model_bump(const Bump<2>& xz, [[maybe_unused]] double ylen) {
  if constexpr (Dims == 3)
    return Bump<3>{xz.amplitude, xz.x0, ylen / 2.0, xz.z0, xz.xr, xz.xr, xz.zr};
  else
    return xz;
}

}  // namespace simapp
