#pragma once
/// Computes the discrete background arrays (docs/model.md, "Hydrostatic backgrounds") on the
/// run's backend, the pressures with the same physics::pressure the flux kernels use where a
/// face is far from its background (physics::pressure_change; at rest p′ = 0 exactly):
///   ρ̄_c(k), ρ̄θ̄_c(k): 3-point Gauss–Legendre averages over cell rows k ∈ [−halo, nz + halo);
///   ρ̄_i(k), ρ̄θ̄_i(k), p̄_i(k) = C₀(ρ̄θ̄_i)^γ at the interfaces z = k dz, k ∈ [0, nz];
/// and for pressures near them (physics::pressure_change) 1/ρ̄θ̄_c, C₀(ρ̄θ̄_c)^γ and 1/ρ̄θ̄_i.
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// Writable background arrays, laid out as in HydrostaticView.
struct HydrostaticArrays {
  double* density_cell = nullptr;  ///< nz + 2·halo entries
  double* rho_theta_cell = nullptr;
  double* density_face = nullptr;  ///< nz + 1 entries
  double* rho_theta_face = nullptr;
  double* pressure_face = nullptr;
  double* inv_rho_theta_cell = nullptr;  ///< nz + 2·halo entries
  double* pressure_cell = nullptr;
  double* inv_rho_theta_face = nullptr;  ///< nz + 1 entries
};

void compute_hydrostatic_columns(const Stream& stream, const HydrostaticBackground& background,
                                 const CellGeometry<2>& geometry, int nz, HydrostaticArrays arrays);

/// The arrays derived from a background whose ρ̄_c, ρ̄θ̄_c, ρ̄_i and ρ̄θ̄_i `arrays` already hold (a
/// sounding's, integrated on the host): 1/ρ̄θ̄_c, C₀(ρ̄θ̄_c)^γ, p̄_i = C₀(ρ̄θ̄_i)^γ and 1/ρ̄θ̄_i, on the
/// run's backend, with the physics::pressure of the flux kernels (so that at rest p′ = 0 exactly).
void derive_hydrostatic_pressures(const Stream& stream, int nz, HydrostaticArrays arrays);

}  // namespace simapp
