#pragma once
/// Fourth-order finite-volume reconstruction at the interface between q₁ and q₂ from the
/// four cell averages q₀ q₁ | q₂ q₃ (docs/model.md, "Spatial scheme").
#include <cmath>

#include "kernels/backend/fused_multiply_add.hpp"
#include "kernels/backend/host_device.hpp"

namespace simapp {

/// q_f = (−q₀ + 7q₁ + 7q₂ − q₃) / 12 = (7(q₁ + q₂) − (q₀ + q₃)) · (1/12): the sums of the inner and
/// of the outer pair, one fused multiply-add, and a product with the rounded 1/12 (a division
/// costs a GPU about twenty instructions; this differs from the quotient by at most an ulp).
/// Mirrored (q₃ q₂ q₁ q₀) it gives the same bits. Real: double or float, the state's type.
template <class Real>
SIMAPP_HOST_DEVICE inline Real face_value(Real q0, Real q1, Real q2, Real q3) {
  constexpr Real one_twelfth = Real(1) / Real(12);
  return fma(Real(7), q1 + q2, -(q0 + q3)) * one_twelfth;
}

/// Undivided third difference d3 = −q₀ + 3q₁ − 3q₂ + q₃ = 3(q₁ − q₂) + (q₃ − q₀) (the
/// hyperviscosity stencil), one fused multiply-add; mirrored it gives −d3 exactly.
template <class Real>
SIMAPP_HOST_DEVICE inline Real third_difference(Real q0, Real q1, Real q2, Real q3) {
  return fma(Real(3), q1 - q2, q3 - q0);
}

}  // namespace simapp
