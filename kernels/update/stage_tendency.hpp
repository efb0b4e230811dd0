#pragma once
/// The tendency and update of one Runge–Kutta stage at one cell (docs/model.md, "Spatial
/// scheme" and "Time stepping"), as point functions shared by every granularity:
///   R = −(F_{i+1} − F_i) / dx                    (x pass)
///   R = −(H_{k+1} − H_k) / dz,  R(ρw) −= ρ′ g     (z pass)
/// plus, in every stage of both passes, R(ρw) += S with S = b(x, z) ρ̄_c(k) for gravity_waves
/// (0 otherwise);   q_out = q_init + dt_stage · R.
/// The divisions are products with 1/dx and 1/dz, worked out once a step (StepParams<2>). A
/// kernel reads the stage's factors and the cell's S once, before its loop over variables:
/// read inside it, the compiler would reload them after every store, and it hoists the
/// source's divisions and square root out of the loop, ahead of the test that skips them.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// What a stage's update multiplies by: 1/dx (x pass) or 1/dz (z pass), and dt_stage.
struct StageFactors {
  double inv_spacing = 0.0;
  double dt = 0.0;
};

template <Direction D>
SIMAPP_HOST_DEVICE inline StageFactors stage_factors(const FluxContext<2>& context) {
  const StepParams<2>& params = *context.params;
  return {D == Direction::x ? params.inv_dx : params.inv_dz, params.stage[context.stage].dt};
}

/// S = b(x_i, z_k) ρ̄_c(k), the wave source's forcing of ρw at cell (i, k); 0 without one.
SIMAPP_HOST_DEVICE inline double momentum_source(int k, int i, const FluxContext<2>& context,
                                                 const Bump<2>& wave_source) {
  if (wave_source.amplitude == 0.0) return 0.0;
  return wave_source(context.geometry.x_center(i), context.geometry.z_center(k)) * context.background.cell_density(k);
}

/// R(v) at a cell from the fluxes at its low and high faces in the pass's direction, its own
/// density perturbation ρ′ and momentum source S, for the model whose variables are V (the
/// vertical momentum is V::wmom: 2 in the 2-D model, 3 in the 3-D one).
template <Direction D, class V = ModelVariables<2>>
SIMAPP_HOST_DEVICE inline double stage_tendency(int v, double flux_low, double flux_high, double density_perturbation,
                                                double source, const StageFactors& factors) {
  double tendency = -(flux_high - flux_low) * factors.inv_spacing;
  if (v == V::wmom) {
    if constexpr (D == Direction::z) tendency -= density_perturbation * physics::gravity;
    tendency += source;
  }
  return tendency;
}

/// q_out = q_init + dt_stage · R.
SIMAPP_HOST_DEVICE inline double stage_update(double init, double tendency, double dt_stage) {
  return init + dt_stage * tendency;
}

}  // namespace simapp
