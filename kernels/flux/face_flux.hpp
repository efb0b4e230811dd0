#pragma once
/// Fluxes at one cell face from the reconstructed face values q_f and third differences d3
/// of the four variables (docs/model.md, "Spatial scheme"); K is the hyperviscosity coefficient.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// x faces:  ρ = q_f(ρ′) + ρ̄_c,  m = q_f(ρu),  u = m/ρ,  w = q_f(ρw)/ρ,  θ = (q_f((ρθ)′) + ρ̄θ̄_c)/ρ,
/// p = C₀(ρθ)^γ;   F = (m, m u + p, m w, m θ) − K d3   (m = ρu: the face value itself, not ρ·u).
/// One reciprocal 1/ρ serves u, w and θ. p = p̄_c + (p − p̄_c), the change from the row's
/// background pressure p̄_c = C₀(ρ̄θ̄_c)^γ taken from ρθ's perturbation q_f((ρθ)′) directly
/// (physics::pressure_change), not from ρθ.
SIMAPP_HOST_DEVICE inline void x_face_flux(const double q[var::count], const double d3[var::count],
                                           double background_density, const physics::PressureReference& background,
                                           double k_hyper, double flux[var::count]) {
  const double r = q[var::dens] + background_density;
  const double inv_r = 1.0 / r;
  const double m = q[var::umom];
  const double u = m * inv_r;
  const double w = q[var::wmom] * inv_r;
  const double rho_theta = q[var::rhot] + background.rho_theta;
  const double t = rho_theta * inv_r;
  const double p = background.pressure + physics::pressure_change(q[var::rhot], background);
  flux[var::dens] = m - k_hyper * d3[var::dens];
  flux[var::umom] = m * u + p - k_hyper * d3[var::umom];
  flux[var::wmom] = m * w - k_hyper * d3[var::wmom];
  flux[var::rhot] = m * t - k_hyper * d3[var::rhot];
}

/// z faces: as x with interface backgrounds ρ̄_i, ρ̄θ̄_i and p′ = C₀(ρθ)^γ − p̄_i, n = q_f(ρw):
/// H = (n, n u, n w + p′, n θ) − K d3. At a wall n = 0 and the density's K d3 is 0, so no
/// mass crosses it. p′ comes from q_f((ρθ)′) directly (physics::pressure_change), without
/// the cancellation of subtracting p̄_i from p.
SIMAPP_HOST_DEVICE inline void z_face_flux(const double q[var::count], const double d3[var::count],
                                           double background_density, const physics::PressureReference& background,
                                           bool at_wall, double k_hyper, double flux[var::count]) {
  const double r = q[var::dens] + background_density;
  const double inv_r = 1.0 / r;
  const double n = at_wall ? 0.0 : q[var::wmom];
  const double u = q[var::umom] * inv_r;
  const double w = n * inv_r;
  const double rho_theta = q[var::rhot] + background.rho_theta;
  const double t = rho_theta * inv_r;
  const double p = physics::pressure_change(q[var::rhot], background);
  const double d3_dens = at_wall ? 0.0 : d3[var::dens];
  flux[var::dens] = n - k_hyper * d3_dens;
  flux[var::umom] = n * u - k_hyper * d3[var::umom];
  flux[var::wmom] = n * w + p - k_hyper * d3[var::wmom];
  flux[var::rhot] = n * t - k_hyper * d3[var::rhot];
}

/// F (x pass) or H (z pass) at a face of row k (x) or at face k (z) from the face values q
/// and third differences d3 of all variables.
template <Direction D>
SIMAPP_HOST_DEVICE inline void flux_at_face(const double q[var::count], const double d3[var::count], int k,
                                            const FluxContext& context, double flux[var::count]) {
  const CellGeometry& geometry = context.geometry;
  const HydrostaticView& background = context.background;
  if constexpr (D == Direction::x) {
    x_face_flux(q, d3, background.cell_density(k), background.cell_reference(k), context.stage_params().k_hyper_x,
                flux);
  } else {
    const int global_k = geometry.k_offset + k;
    const bool at_wall = global_k == 0 || global_k == geometry.global_nz;
    z_face_flux(q, d3, background.density_face[k], background.face_reference(k), at_wall,
                context.stage_params().k_hyper_z, flux);
  }
}

}  // namespace simapp
