#pragma once
/// The tendency and update of one Runge–Kutta stage at one cell (docs/model.md, "Spatial
/// scheme" and "Time stepping"), as point functions shared by every granularity:
///   R = −(F_{i+1} − F_i) / dx                    (x pass)
///   R = −(G_{j+1} − G_j) / dy                    (y pass, 3-D)
///   R = −(H_{k+1} − H_k) / dz,  R(ρw) −= ρ′ g     (z pass)
/// plus R(ρw) += S, the source terms' sum (source_terms.hpp);   q_out = q_init + dt_stage · R.
/// The divisions are products with 1/dx, 1/dy and 1/dz, worked out once a step (StepParams). A
/// kernel reads the stage's factors and the cell's S once, before its loop over variables:
/// read inside it, the compiler would reload them after every store, and it hoists the
/// source's divisions and square root out of the loop, ahead of the test that skips them.
#include <cmath>

#include "kernels/backend/fused_multiply_add.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/update/source_terms.hpp"

namespace simapp {

/// What a stage's update multiplies by: 1/dx, 1/dy or 1/dz of the pass, and dt_stage, in the
/// state's type Real (the step values are double: rounded once here).
template <class Real>
struct StageFactors {
  Real inv_spacing = 0;
  Real dt = 0;
};

template <Direction D, class Real, int Dims>
SIMAPP_HOST_DEVICE inline StageFactors<Real> stage_factors(const FluxContext<Dims>& context) {
  const StepParams<Dims>& params = *context.params;
  const Real dt_stage = Real(params.stage[context.stage].dt);
  if constexpr (D == Direction::x)
    return {Real(params.inv_dx), dt_stage};
  else if constexpr (D == Direction::y)
    return {Real(params.inv_dy), dt_stage};
  else
    return {Real(params.inv_dz), dt_stage};
}

/// R(v) at a cell from the fluxes at its low and high faces in the pass's direction, its own
/// density perturbation ρ′ and momentum source S, for the model whose variables are V (the
/// vertical momentum is V::wmom: 2 in the 2-D model, 3 in the 3-D one).
template <Direction D, class V, class Real>
SIMAPP_HOST_DEVICE inline Real stage_tendency(int v, Real flux_low, Real flux_high, Real density_perturbation,
                                              Real source, const StageFactors<Real>& factors) {
  Real tendency = -(flux_high - flux_low) * factors.inv_spacing;
  if (v == V::wmom) {
    if constexpr (D == Direction::z) tendency = fma(-density_perturbation, Real(physics::gravity), tendency);
    tendency += source;
  }
  return tendency;
}

/// q_out = q_init + dt_stage · R, one fused multiply-add.
template <class Real>
SIMAPP_HOST_DEVICE inline Real stage_update(Real init, Real tendency, Real dt_stage) {
  return fma(dt_stage, tendency, init);
}

}  // namespace simapp
