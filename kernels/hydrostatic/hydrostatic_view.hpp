#pragma once
/// The discrete background arrays the kernels read (built once per run by the solver):
/// cell averages for rows k ∈ [−halo, nz + halo) and interface values for k ∈ [0, nz].
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"

namespace simapp {

struct HydrostaticView {
  const double* density_cell = nullptr;        ///< ρ̄_c, nz + 2·halo entries
  const double* rho_theta_cell = nullptr;      ///< ρ̄θ̄_c
  const double* density_face = nullptr;        ///< ρ̄_i at z = k·dz, nz + 1 entries
  const double* rho_theta_face = nullptr;      ///< ρ̄θ̄_i
  const double* pressure_face = nullptr;       ///< p̄_i = C₀ (ρ̄θ̄_i)^γ
  const double* inv_rho_theta_cell = nullptr;  ///< 1/ρ̄θ̄_c
  const double* pressure_cell = nullptr;       ///< C₀ (ρ̄θ̄_c)^γ
  const double* inv_rho_theta_face = nullptr;  ///< 1/ρ̄θ̄_i
  /// The background's wind (a sounding's: the diffusion acts on the departure from it), ū_c of
  /// rows k ∈ [−halo, nz + halo), then v̄_c `wind_stride` entries further; null: none (0).
  const double* wind_cell = nullptr;
  int wind_stride = 0;
  /// θ₀ − θ̄ of every interior cell (k, j, i) of the rank, row-major (physics.diffusion_reference:
  /// initial_state: the initial state's departure, which θ's vertical diffusion leaves alone);
  /// null: none (0).
  const double* initial_theta_departure = nullptr;
  int columns_x = 0, columns_y = 0;  ///< the rank's interior cells along x and y

  SIMAPP_HOST_DEVICE double cell_density(int k) const { return density_cell[k + numerics::halo_width]; }
  SIMAPP_HOST_DEVICE double cell_rho_theta(int k) const { return rho_theta_cell[k + numerics::halo_width]; }
  /// Component c (0: u, 1: v) of the background wind in row k; 0 without one.
  SIMAPP_HOST_DEVICE double cell_wind(int c, int k) const {
    return wind_cell == nullptr ? 0.0 : wind_cell[c * wind_stride + k + numerics::halo_width];
  }
  /// θ₀ − θ̄ of interior cell (k, j, i); 0 without the initial state as a reference.
  SIMAPP_HOST_DEVICE double initial_theta(int k, int j, int i) const {
    return initial_theta_departure == nullptr
               ? 0.0
               : initial_theta_departure[(static_cast<long>(k) * columns_y + j) * columns_x + i];
  }
  /// The reference for pressures in cell row k (x faces) and at interface k (z faces).
  SIMAPP_HOST_DEVICE physics::PressureReference cell_reference(int k) const {
    const int row = k + numerics::halo_width;
    return {rho_theta_cell[row], inv_rho_theta_cell[row], pressure_cell[row]};
  }
  SIMAPP_HOST_DEVICE physics::PressureReference face_reference(int k) const {
    return {rho_theta_face[k], inv_rho_theta_face[k], pressure_face[k]};
  }
};

}  // namespace simapp
