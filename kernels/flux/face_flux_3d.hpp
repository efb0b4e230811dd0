#pragma once
/// The 3-D model's flux at one face of a split pass, advective and diffusive, as one point
/// function that the stage kernel (on its tile) and the fused and fine flux kernels (on memory)
/// share, so that every granularity computes the same numbers:
///   x: F = F_adv(q_f, d3; ρu normal) − ν ρ_f Δφ / dx     (horizontal_face_flux, add_face_diffusion)
///   y: G = F_adv(q_f, d3; ρv normal) − ν ρ_f Δφ / dy
///   z: H = H_adv(q_f, d3) − ν ρ_f Δφ / dz, no diffusion at a wall (vertical_face_flux)
/// at a face of row k (x, y: the row's background) or at face k (z: the interface's).
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// ν/Δ of the pass along D: 0 without diffusion.
template <Direction D>
SIMAPP_HOST_DEVICE inline double viscosity_over_spacing_3d(const StepParams<3>& params) {
  return D == Direction::x ? params.viscosity_x : D == Direction::y ? params.viscosity_y : params.viscosity_z;
}

/// The flux of every variable at the face from its face values q and third differences d3; with
/// a viscosity, `neighbours(low, high)` gives the stored values of the cells either side.
template <Direction D, class Neighbours>
SIMAPP_HOST_DEVICE inline void face_flux_3d(const double q[ModelVariables<3>::count],
                                            const double d3[ModelVariables<3>::count], int k,
                                            const FluxContext<3>& context, const Neighbours& neighbours,
                                            double f[ModelVariables<3>::count]) {
  using V = ModelVariables<3>;
  constexpr bool z_pass = D == Direction::z;
  const HydrostaticView& background = context.background;
  const StepParams<3>& params = *context.params;
  const StageParams& stage = params.stage[context.stage];
  const int global_k = context.geometry.k_offset + k;
  const bool at_wall = z_pass && (global_k == 0 || global_k == context.geometry.global_nz);
  if constexpr (D == Direction::x)
    horizontal_face_flux<V, V::umom>(q, d3, background.cell_density(k), background.cell_reference(k), stage.k_hyper_x,
                                     f);
  else if constexpr (D == Direction::y)
    horizontal_face_flux<V, V::vmom>(q, d3, background.cell_density(k), background.cell_reference(k),
                                     params.k_hyper_y[context.stage], f);
  else
    vertical_face_flux<V>(q, d3, background.density_face[k], background.face_reference(k), at_wall, stage.k_hyper_z, f);
  const double nu_over_spacing = viscosity_over_spacing_3d<D>(params);
  if (nu_over_spacing == 0.0 || at_wall) return;
  double low[V::count], high[V::count];
  neighbours(low, high);
  add_face_diffusion<V>(low, high, face_neighbours<z_pass>(background, k),
                        nu_over_spacing * (q[V::dens] + face_density<z_pass>(background, k)), f);
}

}  // namespace simapp
