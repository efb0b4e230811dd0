#pragma once
/// Physical diffusion ν∇² of u, w and θ (physics.viscosity; docs/model.md, "Diffusion"), as
/// second-order fluxes at the faces of the finite-volume scheme:
///   F(ρφ) −= ν ρ_f (φ_R − φ_L) / Δ   for φ = u, w, θ,   φ = (ρφ) / ρ in the two cells L | R,
/// with ρ_f the face density of the advective flux (q_f(ρ′) + ρ̄ at the face), so that the
/// tendency of ρφ is ∂/∂x(ν ρ ∂φ/∂x) (and likewise in z) ≈ ρ ν ∇²φ; no mass diffuses. At a
/// wall there is none: free slip (∂u/∂z = 0, ∂w/∂z taken as 0) and no heat flux (∂θ/∂z = 0).
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// ν/Δ of the step in the pass's direction: 0 without diffusion.
template <Direction D>
SIMAPP_HOST_DEVICE inline double viscosity_over_spacing(const FluxContext& context) {
  return D == Direction::x ? context.params->viscosity_x : context.params->viscosity_z;
}

/// Adds the diffusive fluxes to `flux` at a face between the cells whose stored values are
/// `low` and `high` (all four variables, perturbations as stored), from the face's
/// reconstructed density perturbation; k as in flux_at_face (x: the row; z: the face, between
/// rows k − 1 and k). Nothing when the step's ν is 0.
template <Direction D>
SIMAPP_HOST_DEVICE inline void add_diffusive_flux(const double low[var::count], const double high[var::count],
                                                  double face_density_perturbation, int k, const FluxContext& context,
                                                  double flux[var::count]) {
  const double nu_over_spacing = viscosity_over_spacing<D>(context);
  if (nu_over_spacing == 0.0) return;
  const HydrostaticView& background = context.background;
  double density_low = 0.0, density_high = 0.0, rho_theta_low = 0.0, rho_theta_high = 0.0, face_density = 0.0;
  if constexpr (D == Direction::x) {
    density_low = density_high = background.cell_density(k);
    rho_theta_low = rho_theta_high = background.cell_rho_theta(k);
    face_density = background.cell_density(k);
  } else {
    const int global_k = context.geometry.k_offset + k;
    if (global_k == 0 || global_k == context.geometry.global_nz) return;  // a wall
    density_low = background.cell_density(k - 1);
    density_high = background.cell_density(k);
    rho_theta_low = background.cell_rho_theta(k - 1);
    rho_theta_high = background.cell_rho_theta(k);
    face_density = background.density_face[k];
  }
  const double inv_low = 1.0 / (low[var::dens] + density_low);
  const double inv_high = 1.0 / (high[var::dens] + density_high);
  const double c = nu_over_spacing * (face_density_perturbation + face_density);
  flux[var::umom] -= c * (high[var::umom] * inv_high - low[var::umom] * inv_low);
  flux[var::wmom] -= c * (high[var::wmom] * inv_high - low[var::wmom] * inv_low);
  flux[var::rhot] -= c * ((high[var::rhot] + rho_theta_high) * inv_high - (low[var::rhot] + rho_theta_low) * inv_low);
}

}  // namespace simapp
