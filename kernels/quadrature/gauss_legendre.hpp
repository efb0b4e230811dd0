#pragma once
/// Three-point Gauss–Legendre quadrature on a unit cell: points ½ ∓ √(3/5)/2 and ½,
/// weights 5/18, 8/18, 5/18 (exact for polynomials of degree 5).
#include "kernels/backend/host_device.hpp"

namespace simapp::gauss_legendre {

inline constexpr int num_points = 3;

/// Position of point q in cell units, ∈ (0, 1).
SIMAPP_HOST_DEVICE inline double point(int q) {
  constexpr double half_offset = 0.38729833462074168852;  // √(3/5) / 2
  return q == 0 ? 0.5 - half_offset : q == 1 ? 0.5 : 0.5 + half_offset;
}

SIMAPP_HOST_DEVICE inline double weight(int q) { return q == 1 ? 8.0 / 18.0 : 5.0 / 18.0; }

}  // namespace simapp::gauss_legendre
