#pragma once
/// The discrete hydrostatic background of a run, computed once on the host and kept in the
/// backend's memory (docs/model.md, "Hydrostatic backgrounds"):
///   ρ̄_c(k), ρ̄θ̄_c(k): 3-point Gauss–Legendre averages over cell rows k ∈ [−2, nz + 2);
///   ρ̄_i(k), ρ̄θ̄_i(k), p̄_i(k) = C₀(ρ̄θ̄_i)^γ at the interfaces z = k dz, k ∈ [0, nz].
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// The arrays on the host, in the order of HydrostaticView.
struct HydrostaticColumns {
  std::vector<double> density_cell, rho_theta_cell;
  std::vector<double> density_face, rho_theta_face, pressure_face;
};

/// Evaluates the background for `nz` local rows starting at global row geometry.k_offset.
HydrostaticColumns make_hydrostatic_columns(const HydrostaticBackground& background,
                                            const CellGeometry& geometry, int nz);

class HydrostaticProfile {
 public:
  HydrostaticProfile(const Stream& stream, const HydrostaticColumns& columns);
  HydrostaticView view() const;

 private:
  DeviceBuffer<double> density_cell_, rho_theta_cell_;
  DeviceBuffer<double> density_face_, rho_theta_face_, pressure_face_;
};

}  // namespace simapp
