#pragma once
/// The gravity_waves case's forcing, a source term of the stage tendency (source_terms.hpp):
///   R(ρw) += S,  S = b(x_i, (y_j,) z_k) · ρ̄_c(k)
/// in every stage of the x and z passes, with b the case's bump as configured; none (amplitude 0)
/// in every other case.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The forcing's bump b.
template <int Dims>
struct GravityWaveForcing {
  Bump<Dims> bump;
};

/// S at cell (i, j, k) in a pass along D: 0 in the y pass and without a forcing.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double momentum_source(int i, int j, int k, const FluxContext<Dims>& context,
                                                 const GravityWaveForcing<Dims>& forcing) {
  const Bump<Dims>& bump = forcing.bump;
  if (D == Direction::y || bump.amplitude == 0.0) return 0.0;
  const CellGeometry<Dims>& geometry = context.geometry;
  if constexpr (Dims == 3)
    return bump(geometry.x_center(i), geometry.y_center(j), geometry.z_center(k)) * context.background.cell_density(k);
  else
    return bump(geometry.x_center(i), geometry.z_center(k)) * context.background.cell_density(k);
}

}  // namespace simapp
