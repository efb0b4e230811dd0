#pragma once
/// Physical diffusion as second-order fluxes at the faces of the finite-volume scheme
/// (docs/model.md, "Diffusion"): ν∇² of the velocities (u, w; in 3-D u, v, w; physics.viscosity)
/// and κ∇² of θ (physics.diffusivity), each as its departure from a reference φ_ref: the
/// background's φ̄(z) (the sounding's wind ū, v̄, where the case has one, else 0; w̄ = 0; θ̄ =
/// ρ̄θ̄/ρ̄), and for θ along z with physics.diffusion_reference: initial_state the initial θ₀:
///   F(ρφ) −= c ρ_f ((φ_R − φ_L) − (φ_ref,R − φ_ref,L)) / Δ   for φ = u, (v,) w with c = ν, and φ = θ
/// with c = κ, φ = (ρφ) / ρ in the two cells L | R, with ρ_f the face density of the advective flux
/// (q_f(ρ′) + ρ̄ at the face), so that the tendency of ρφ is ∂/∂x(c ρ ∂(φ − φ_ref)/∂x) (and likewise
/// in z) ≈ ρ c ∇²(φ − φ_ref); no mass diffuses. The background does not diffuse: along x and y φ̄_R =
/// φ̄_L (one row), and along z the sounding's own gradient, which the walls' zero flux would
/// otherwise wear away, is left out; with the initial state as θ's reference along z (HOMME's
/// DCMIP2016 diffusion acts on the departure from the initial state in the vertical) neither
/// does an initial bubble's vertical profile. At a wall there is none: free slip (∂u/∂z = 0,
/// ∂w/∂z taken as 0) and no heat flux. The tracers diffuse by the same rule with κ, from their
/// background (tracer_flux.hpp).
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The backgrounds of the two cells either side of a face.
struct FaceNeighbourBackground {
  double density_low = 0.0, density_high = 0.0;
  double rho_theta_low = 0.0, rho_theta_high = 0.0;
  double u_low = 0.0, u_high = 0.0, v_low = 0.0, v_high = 0.0;  ///< the background wind (HydrostaticView::cell_wind)
  double theta_low = 0.0, theta_high = 0.0;  ///< θ₀ − θ̄ of a z face's cells (HydrostaticView::initial_theta)
};

/// The interior column (i, j) of a face's cells: where a z face reads the initial θ.
struct ColumnIndex {
  int i = 0, j = 0;
};

/// F(ρu_j) −= c ((u_j,R − u_j,L) − (ū_j,R − ū_j,L)) for every velocity u_j with c = c_momentum =
/// ν ρ_f / Δ (ū_j the background wind, w̄ = 0), and F(ρθ) −= c ((θ_R − θ_L) − (θ̄_R − θ̄_L)) with c =
/// c_theta = κ ρ_f / Δ (θ̄ with θ₀ − θ̄ added where θ's reference is the initial state), of the
/// model whose variables are V; `low` and `high` are the cells' stored values (perturbations).
/// Along x and y the backgrounds' differences are 0 exactly.
/// Real is the state's type (double or float); the backgrounds' differences are formed in double.
template <class V, class Real>
SIMAPP_HOST_DEVICE inline void add_face_diffusion(const Real low[V::count], const Real high[V::count],
                                                  const FaceNeighbourBackground& background, Real c_momentum,
                                                  Real c_theta, Real flux[V::count]) {
  const Real inv_low = Real(1) / (low[V::dens] + Real(background.density_low));
  const Real inv_high = Real(1) / (high[V::dens] + Real(background.density_high));
  for_each_momentum<V>([&](auto momentum) {
    constexpr int j = decltype(momentum)::value;
    // ū of u, v̄ of v (the 3-D model's momentum along y), w̄ = 0.
    Real background_difference = 0;
    if constexpr (j == V::umom) background_difference = Real(background.u_high - background.u_low);
    if constexpr (V::momenta == 3 && j == V::momentum(1))
      background_difference = Real(background.v_high - background.v_low);
    flux[j] -= c_momentum * ((high[j] * inv_high - low[j] * inv_low) - background_difference);
  });
  const Real background_difference =
      Real((background.rho_theta_high / background.density_high + background.theta_high) -
           (background.rho_theta_low / background.density_low + background.theta_low));
  flux[V::rhot] -= c_theta * (((high[V::rhot] + Real(background.rho_theta_high)) * inv_high -
                               (low[V::rhot] + Real(background.rho_theta_low)) * inv_low) -
                              background_difference);
}

/// The backgrounds of the cells either side of a horizontal face (x, y) of row k, both row k's,
/// or of vertical face k (z) of column c, rows k − 1 and k.
template <bool Vertical>
SIMAPP_HOST_DEVICE inline FaceNeighbourBackground face_neighbours(const HydrostaticView& background, int k,
                                                                  ColumnIndex c) {
  const int low = Vertical ? k - 1 : k;
  FaceNeighbourBackground neighbours{background.cell_density(low),   background.cell_density(k),
                                     background.cell_rho_theta(low), background.cell_rho_theta(k),
                                     background.cell_wind(0, low),   background.cell_wind(0, k),
                                     background.cell_wind(1, low),   background.cell_wind(1, k)};
  if constexpr (Vertical) {
    neighbours.theta_low = background.initial_theta(low, c.j, c.i);
    neighbours.theta_high = background.initial_theta(k, c.j, c.i);
  }
  return neighbours;
}

/// The background density at a horizontal face of row k (the row's) or at vertical face k.
template <bool Vertical>
SIMAPP_HOST_DEVICE inline double face_density(const HydrostaticView& background, int k) {
  return Vertical ? background.density_face[k] : background.cell_density(k);
}

/// ν/Δ of the step in the pass's direction: 0 without diffusion of the velocities.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double viscosity_over_spacing(const FluxContext<Dims>& context) {
  if constexpr (D == Direction::x)
    return context.params->viscosity_x;
  else if constexpr (D == Direction::y)
    return context.params->viscosity_y;
  else
    return context.params->viscosity_z;
}

/// κ/Δ of the step in the pass's direction: 0 without diffusion of θ and the tracers.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double diffusivity_over_spacing(const FluxContext<Dims>& context) {
  if constexpr (D == Direction::x)
    return context.params->diffusivity_x;
  else if constexpr (D == Direction::y)
    return context.params->diffusivity_y;
  else
    return context.params->diffusivity_z;
}

/// Whether the dry variables diffuse in the pass's direction: ν or κ is not 0.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline bool dry_variables_diffuse(const FluxContext<Dims>& context) {
  return viscosity_over_spacing<D>(context) != 0.0 || diffusivity_over_spacing<D>(context) != 0.0;
}

/// Adds the diffusive fluxes to `flux` at a face between the cells whose stored values are
/// `low` and `high` (every variable, perturbations as stored), from the face's reconstructed
/// density perturbation; k as in flux_at_face (x, y: the row; z: the face, between rows k − 1
/// and k), c the face's interior column (read along z). Nothing when the step's ν and κ are 0,
/// nor at a wall.
template <Direction D, int Dims, class Real>
SIMAPP_HOST_DEVICE inline void add_diffusive_flux(const Real low[ModelVariables<Dims>::count],
                                                  const Real high[ModelVariables<Dims>::count],
                                                  Real face_density_perturbation, int k, ColumnIndex c,
                                                  const FluxContext<Dims>& context,
                                                  Real flux[ModelVariables<Dims>::count]) {
  if (!dry_variables_diffuse<D>(context)) return;
  constexpr bool vertical = D == Direction::z;
  if constexpr (vertical) {
    const int global_k = context.geometry.k_offset + k;
    if (global_k == 0 || global_k == context.geometry.global_nz) return;  // a wall
  }
  const Real density = face_density_perturbation + Real(face_density<vertical>(context.background, k));
  add_face_diffusion<ModelVariables<Dims>>(low, high, face_neighbours<vertical>(context.background, k, c),
                                           Real(viscosity_over_spacing<D>(context)) * density,
                                           Real(diffusivity_over_spacing<D>(context)) * density, flux);
}

}  // namespace simapp
