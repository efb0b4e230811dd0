#pragma once
/// The flux of a tracer at one cell face (docs/model.md, "Tracers"), carried by the dry flux's
/// face velocity with the same fourth-order face values and hyperviscosity:
///   x faces F = u (q_f(ρ_x′) + ρ̄_x,c(k)) − K d3(ρ_x′),  u = q_f(ρu) / (q_f(ρ′) + ρ̄_c(k));
///   y faces likewise with v;
///   z faces H = w (q_f(ρ_x′) + ρ̄_x,i(k)) − K d3(ρ_x′),  w = q_f(ρw) / (q_f(ρ′) + ρ̄_i(k)),
/// and at a wall w = 0 and K d3 = 0: no tracer crosses it. The velocity is formed with the
/// operations horizontal_face_flux and vertical_face_flux form it with (a reciprocal of ρ, then a
/// product), so that a tracer of mixing ratio 1 moves as ρ does, to round-off. With a diffusivity
/// κ (physics.diffusivity) the flux also gets θ's diffusive flux (diffusive_flux.hpp) of the
/// tracer's mixing ratio φ = ρ_x/ρ, departing from the background's φ̄ = ρ̄_x/ρ̄:
///   F(ρ_x) −= κ ρ_f ((φ_R − φ_L) − (φ̄_R − φ̄_L)) / Δ,   φ = (ρ̄_x + ρ_x′) / (ρ̄ + ρ′) in the two
/// cells L | R, ρ_f = q_f(ρ′) + ρ̄ at the face, and none at a wall (no tracer crosses it).
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/reconstruction/fourth_order.hpp"

namespace simapp {

/// Whether the face along D at row or interface k is a wall (z faces at the domain's bottom and top).
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline bool is_wall_face(int k, const FluxContext<Dims>& context) {
  if constexpr (D == Direction::z) {
    const int global_k = context.geometry.k_offset + k;
    return global_k == 0 || global_k == context.geometry.global_nz;
  } else {
    return false;
  }
}

/// The variable whose face value, over ρ, is the velocity through faces along D: ρu, ρv or ρw.
template <Direction D, int Dims>
constexpr int normal_momentum() {
  using V = ModelVariables<Dims>;
  return D == Direction::x ? V::umom : D == Direction::z ? V::wmom : V::momentum(1);
}

/// The face velocity of the dry flux along D at a face of row k (x, y) or at interface k (z),
/// from the face values of ρ′ and of the momentum normal to the face; 0 at a wall.
template <Direction D, int Dims, class Real>
SIMAPP_HOST_DEVICE inline Real face_velocity(Real density_face, Real momentum_face, int k,
                                             const FluxContext<Dims>& context) {
  if constexpr (D == Direction::z) {
    const Real inv_r = Real(1) / (density_face + Real(context.background.density_face[k]));
    const Real n = is_wall_face<D>(k, context) ? Real(0) : momentum_face;
    return n * inv_r;
  } else {
    const Real inv_r = Real(1) / (density_face + Real(context.background.cell_density(k)));
    return momentum_face * inv_r;
  }
}

/// The flux of tracer t at a face along D from the face's velocity, the tracer's four cell
/// values q₀ q₁ | q₂ q₃ around it and its background at the face's row (x, y) or interface (z).
template <Direction D, int Dims, class Real>
SIMAPP_HOST_DEVICE inline Real tracer_face_flux(Real velocity, const Real (&tracer)[4], double background, int k,
                                                const FluxContext<Dims>& context) {
  const Real k_hyper = Real(hyperviscosity_along<D>(context));
  const Real q_f = face_value(tracer[0], tracer[1], tracer[2], tracer[3]);
  const Real d3 = is_wall_face<D>(k, context) ? Real(0) : third_difference(tracer[0], tracer[1], tracer[2], tracer[3]);
  return velocity * (q_f + Real(background)) - k_hyper * d3;
}

/// κ ρ_f / Δ at a face along D of row k (x, y) or at interface k (z), ρ_f = q_f(ρ′) + ρ̄ at the
/// face from the face value of ρ′: the factor of the tracers' diffusive flux; 0 at a wall.
template <Direction D, int Dims, class Real>
SIMAPP_HOST_DEVICE inline Real tracer_diffusion_factor(Real density_face, int k, const FluxContext<Dims>& context) {
  if (is_wall_face<D>(k, context)) return 0;
  constexpr bool vertical = D == Direction::z;
  return Real(diffusivity_over_spacing<D>(context)) *
         (density_face + Real(face_density<vertical>(context.background, k)));
}

/// A tracer in one cell as its diffusion reads it: the stored perturbation ρ_x′, the tracer's
/// background ρ̄_x at the cell's row, 1/ρ = 1/(ρ′ + ρ̄) of the cell and the row's ρ̄.
template <class Real>
struct TracerInCell {
  Real perturbation = 0;
  double background = 0.0;
  Real inv_density = 0;
  double background_density = 1.0;
};

/// The diffusive flux −c ((φ_R − φ_L) − (φ̄_R − φ̄_L)) of a tracer at the face between the cells
/// `low` and `high`, φ = (ρ_x′ + ρ̄_x) / ρ, φ̄ = ρ̄_x / ρ̄, formed as θ's (add_face_diffusion); c =
/// tracer_diffusion_factor. Along x and y φ̄_R − φ̄_L is 0 exactly (one row).
template <class Real>
SIMAPP_HOST_DEVICE inline Real tracer_diffusive_flux(Real factor, const TracerInCell<Real>& low,
                                                     const TracerInCell<Real>& high) {
  const Real background_difference =
      Real(high.background / high.background_density - low.background / low.background_density);
  return -factor * (((high.perturbation + Real(high.background)) * high.inv_density -
                     (low.perturbation + Real(low.background)) * low.inv_density) -
                    background_difference);
}

}  // namespace simapp
