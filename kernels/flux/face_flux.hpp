#pragma once
/// Fluxes at one cell face from the reconstructed face values q_f and third differences d3
/// of the model's variables (docs/model.md, "Spatial scheme"); K is the hyperviscosity coefficient.
#include <cmath>

#include "kernels/backend/fused_multiply_add.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Faces normal to a horizontal axis, of the model whose variables are V (2-D: x; 3-D: x, and
/// y with u and v exchanged):  ρ = q_f(ρ′) + ρ̄_c,  m = q_f(ρu_n) (u_n the normal velocity),
/// u_j = q_f(ρu_j)/ρ,  θ = (q_f((ρθ)′) + ρ̄θ̄_c)/ρ,  p = C₀(ρθ)^γ;
///   F = (m, m u_j + p δ_jn for each momentum j, m θ) − K d3
/// (m = ρu_n: the face value itself, not ρ·u_n; 2-D x: F = (m, m u + p, m w, m θ) − K d3).
/// One reciprocal 1/ρ serves the velocities and θ. The pressure in the flux is p − p̄_c, the
/// change from the row's background pressure p̄_c = C₀(ρ̄θ̄_c)^γ taken from ρθ's perturbation
/// q_f((ρθ)′) directly (physics::pressure_change): every face of a row has the same p̄_c, so it
/// cancels from the divergence exactly and is left out (in float32 its 10⁵ Pa would round the
/// perturbation's few Pa to 0.01 Pa). Real is the state's type (double or float).
template <class V, int Normal, class Real>
SIMAPP_HOST_DEVICE inline void horizontal_face_flux(const Real q[V::count], const Real d3[V::count],
                                                    double background_density,
                                                    const physics::PressureReference& background, Real k_hyper,
                                                    Real flux[V::count]) {
  const Real r = q[V::dens] + Real(background_density);
  const Real inv_r = Real(1) / r;
  const Real m = q[Normal];
  const Real rho_theta = q[V::rhot] + Real(background.rho_theta);
  const Real t = rho_theta * inv_r;
  const Real p = physics::pressure_change(q[V::rhot], background);
  flux[V::dens] = fma(-k_hyper, d3[V::dens], m);
  for_each_momentum<V>([&](auto momentum) {
    constexpr int j = decltype(momentum)::value;
    const Real velocity = q[j] * inv_r;
    if constexpr (j == Normal)
      flux[j] = fma(m, velocity, fma(-k_hyper, d3[j], p));
    else
      flux[j] = fma(m, velocity, -k_hyper * d3[j]);
  });
  flux[V::rhot] = fma(m, t, -k_hyper * d3[V::rhot]);
}

/// z faces: as horizontal faces with interface backgrounds ρ̄_i, ρ̄θ̄_i and p′ = C₀(ρθ)^γ − p̄_i,
/// n = q_f(ρw):  H = (n, n u_j + p′ δ_jz for each momentum j, n θ) − K d3 (2-D:
/// H = (n, n u, n w + p′, n θ) − K d3). At a wall n = 0 and the density's K d3 is 0, so no mass
/// crosses it. p′ comes from q_f((ρθ)′) directly (physics::pressure_change), without the
/// cancellation of subtracting p̄_i from p.
template <class V, class Real>
SIMAPP_HOST_DEVICE inline void vertical_face_flux(const Real q[V::count], const Real d3[V::count],
                                                  double background_density,
                                                  const physics::PressureReference& background, bool at_wall,
                                                  Real k_hyper, Real flux[V::count]) {
  const Real r = q[V::dens] + Real(background_density);
  const Real inv_r = Real(1) / r;
  const Real n = at_wall ? Real(0) : q[V::wmom];
  const Real rho_theta = q[V::rhot] + Real(background.rho_theta);
  const Real t = rho_theta * inv_r;
  const Real p = physics::pressure_change(q[V::rhot], background);
  const Real d3_dens = at_wall ? Real(0) : d3[V::dens];
  flux[V::dens] = fma(-k_hyper, d3_dens, n);
  for_each_momentum<V>([&](auto momentum) {
    constexpr int j = decltype(momentum)::value;
    if constexpr (j == V::wmom)
      flux[j] = fma(n, n * inv_r, fma(-k_hyper, d3[j], p));
    else
      flux[j] = fma(n, q[j] * inv_r, -k_hyper * d3[j]);
  });
  flux[V::rhot] = fma(n, t, -k_hyper * d3[V::rhot]);
}

/// K of the faces along D in the stage: x and z faces' in the stage's values, y faces' beside them.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double hyperviscosity_along(const FluxContext<Dims>& context) {
  if constexpr (D == Direction::x)
    return context.stage_params().k_hyper_x;
  else if constexpr (D == Direction::y)
    return context.params->k_hyper_y[context.stage];
  else
    return context.stage_params().k_hyper_z;
}

/// F (x pass), G (y pass) or H (z pass) at a face of row k (x, y: the row's background) or at
/// face k (z: the interface's) from the face values q and third differences d3 of every
/// variable, without diffusion.
template <Direction D, int Dims, class Real>
SIMAPP_HOST_DEVICE inline void flux_at_face(const Real q[ModelVariables<Dims>::count],
                                            const Real d3[ModelVariables<Dims>::count], int k,
                                            const FluxContext<Dims>& context, Real flux[ModelVariables<Dims>::count]) {
  using V = ModelVariables<Dims>;
  const HydrostaticView& background = context.background;
  const Real k_hyper = Real(hyperviscosity_along<D>(context));
  if constexpr (D == Direction::x) {
    horizontal_face_flux<V, V::umom>(q, d3, background.cell_density(k), background.cell_reference(k), k_hyper, flux);
  } else if constexpr (D == Direction::y) {
    horizontal_face_flux<V, V::vmom>(q, d3, background.cell_density(k), background.cell_reference(k), k_hyper, flux);
  } else {
    const int global_k = context.geometry.k_offset + k;
    const bool at_wall = global_k == 0 || global_k == context.geometry.global_nz;
    vertical_face_flux<V>(q, d3, background.density_face[k], background.face_reference(k), at_wall, k_hyper, flux);
  }
}

/// The flux of a split pass at one face, advective and diffusive, the one point function that
/// the stage and pass tiles and the fused and fine flux kernels share, so that every granularity
/// computes the same numbers:
///   x: F = F_adv(q_f, d3; ρu normal) − c ρ_f Δφ / dx     (horizontal_face_flux, add_diffusive_flux)
///   y: G = F_adv(q_f, d3; ρv normal) − c ρ_f Δφ / dy     (3-D)
///   z: H = H_adv(q_f, d3) − c ρ_f Δφ / dz, no diffusion at a wall (vertical_face_flux)
/// with c = ν for the velocities and κ for θ. With either, `neighbours(low, high)` gives the
/// stored values of the cells either side and returns their interior column (i, j): only a run
/// that diffuses asks where the cells are.
template <Direction D, int Dims, class Real, class Neighbours>
SIMAPP_HOST_DEVICE inline void face_flux(const Real q[ModelVariables<Dims>::count],
                                         const Real d3[ModelVariables<Dims>::count], int k,
                                         const FluxContext<Dims>& context, const Neighbours& neighbours,
                                         Real flux[ModelVariables<Dims>::count]) {
  using V = ModelVariables<Dims>;
  flux_at_face<D>(q, d3, k, context, flux);
  if (!dry_variables_diffuse<D>(context)) return;
  Real low[V::count], high[V::count];
  const ColumnIndex column = neighbours(low, high);
  add_diffusive_flux<D>(low, high, q[V::dens], k, column, context, flux);
}

}  // namespace simapp
