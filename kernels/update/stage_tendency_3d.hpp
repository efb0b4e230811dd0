#pragma once
/// The 3-D model's stage tendency at one cell, the 2-D point functions (stage_tendency.hpp) with
/// the y pass's factors beside x's and z's, shared by the stage kernel and the fused and fine
/// update kernels:
///   R = −(F_{i+1} − F_i)/dx,  −(G_{j+1} − G_j)/dy  or  −(H_{k+1} − H_k)/dz,  R(ρw) −= ρ′ g in z,
/// plus, in the x and z passes, R(ρw) += S with S = b(x, y, z) ρ̄_c(k) for gravity_waves.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// 1/dx, 1/dy or 1/dz of the pass along D, and the stage's dt.
template <Direction D>
SIMAPP_HOST_DEVICE inline StageFactors stage_factors_3d(const FluxContext<3>& context) {
  const StepParams<3>& params = *context.params;
  return {D == Direction::x   ? params.inv_dx
          : D == Direction::y ? params.inv_dy
                              : params.inv_dz,
          params.stage[context.stage].dt};
}

/// S = b(x_i, y_j, z_k) ρ̄_c(k), the wave source's forcing of ρw at cell (i, j, k) in the x and z
/// passes; 0 in the y pass and without one.
template <Direction D>
SIMAPP_HOST_DEVICE inline double momentum_source_3d(int i, int j, int k, const FluxContext<3>& context,
                                                    const Bump<3>& wave_source) {
  if (D == Direction::y || wave_source.amplitude == 0.0) return 0.0;
  const CellGeometry<3>& geometry = context.geometry;
  return wave_source(geometry.x_center(i), geometry.y_center(j), geometry.z_center(k)) *
         context.background.cell_density(k);
}

}  // namespace simapp
