#pragma once
/// The discrete hydrostatic background of a run, computed once on the run's backend and
/// kept in its memory (kernels/hydrostatic/hydrostatic_columns.hpp says what it holds).
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/hydrostatic/hydrostatic_columns.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// Host copies of the background itself (the first five arrays of HydrostaticView; the others
/// are derived from them for the flux kernels).
struct HydrostaticColumns {
  std::vector<double> density_cell, rho_theta_cell;
  std::vector<double> density_face, rho_theta_face, pressure_face;
  /// The background's wind: ū_c of the nz + 2·halo rows, then v̄_c; empty: none.
  std::vector<double> wind_cell{};
};

class HydrostaticProfile {
 public:
  /// The background of `nz` local rows starting at global row geometry.k_offset.
  HydrostaticProfile(const Stream& stream, const HydrostaticBackground& background, const CellGeometry<2>& geometry,
                     int nz);
  /// The background of `nz` local rows whose ρ̄_c, ρ̄θ̄_c (nz + 2·halo rows) and ρ̄_i, ρ̄θ̄_i (nz + 1
  /// interfaces) `columns` holds (its pressure_face is not read: the backend derives it).
  HydrostaticProfile(const Stream& stream, const HydrostaticColumns& columns, int nz);

  HydrostaticView view() const;
  /// Copies the arrays to the host (waits for the stream).
  HydrostaticColumns to_host(const Stream& stream) const;

 private:
  HydrostaticProfile(const Stream& stream, int nz);
  HydrostaticArrays arrays() const;

  DeviceBuffer<double> density_cell_, rho_theta_cell_;
  DeviceBuffer<double> density_face_, rho_theta_face_, pressure_face_;
  DeviceBuffer<double> inv_rho_theta_cell_, pressure_cell_, inv_rho_theta_face_;
  DeviceBuffer<double> wind_cell_;  ///< empty: no wind
};

}  // namespace simapp
