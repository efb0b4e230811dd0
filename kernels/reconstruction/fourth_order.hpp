#pragma once
/// Fourth-order finite-volume reconstruction at the interface between q₁ and q₂ from the
/// four cell averages q₀ q₁ | q₂ q₃ (docs/model.md, "Spatial scheme").
#include <cmath>

#include "kernels/backend/host_device.hpp"

namespace simapp {

/// q_f = (−q₀ + 7q₁ + 7q₂ − q₃) / 12 = (7(q₁ + q₂) − (q₀ + q₃)) · (1/12): the sums of the inner and
/// of the outer pair, one fused multiply-add, and a product with the rounded 1/12 (a division
/// costs a GPU about twenty instructions; this differs from the quotient by at most an ulp).
/// Mirrored (q₃ q₂ q₁ q₀) it gives the same bits.
SIMAPP_HOST_DEVICE inline double face_value(double q0, double q1, double q2, double q3) {
  constexpr double one_twelfth = 1.0 / 12.0;
  return fma(7.0, q1 + q2, -(q0 + q3)) * one_twelfth;
}

/// Undivided third difference d3 = −q₀ + 3q₁ − 3q₂ + q₃ = 3(q₁ − q₂) + (q₃ − q₀) (the
/// hyperviscosity stencil), one fused multiply-add; mirrored it gives −d3 exactly.
SIMAPP_HOST_DEVICE inline double third_difference(double q0, double q1, double q2, double q3) {
  return fma(3.0, q1 - q2, q3 - q0);
}

}  // namespace simapp
