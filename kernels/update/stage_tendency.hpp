#pragma once
/// The tendency and update of one Runge–Kutta stage at one cell (docs/model.md, "Spatial
/// scheme" and "Time stepping"), as point functions shared by every granularity:
///   R = −(F_{i+1} − F_i) / dx                    (x pass)
///   R = −(H_{k+1} − H_k) / dz,  R(ρw) −= ρ′ g     (z pass)
/// (the divisions as products with 1/dx and 1/dz, worked out once a step)
/// plus, for gravity_waves, R(ρw) += b(x, z) ρ̄_c(k) in every stage of both passes;
///   q_out = q_init + dt_stage · R.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// R(v) at cell (i, k) from the fluxes at its low and high faces in the pass's direction and
/// its own density perturbation ρ′.
template <Direction D>
SIMAPP_HOST_DEVICE inline double stage_tendency(int v, int k, int i, double flux_low, double flux_high,
                                                double density_perturbation, const FluxContext& context,
                                                const Bump& wave_source) {
  double tendency;
  if constexpr (D == Direction::x)
    tendency = -(flux_high - flux_low) * context.params->inv_dx;
  else
    tendency = -(flux_high - flux_low) * context.params->inv_dz;
  if (v == var::wmom) {
    if constexpr (D == Direction::z) tendency -= density_perturbation * physics::gravity;
    if (wave_source.amplitude != 0.0)
      tendency += wave_source(context.geometry.x_center(i), context.geometry.z_center(k)) *
                  context.background.cell_density(k);
  }
  return tendency;
}

/// q_out = q_init + dt_stage · R.
SIMAPP_HOST_DEVICE inline double stage_update(double init, double tendency, const FluxContext& context) {
  return init + context.stage_params().dt * tendency;
}

}  // namespace simapp
