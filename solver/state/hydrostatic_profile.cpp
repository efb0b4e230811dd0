#include "solver/state/hydrostatic_profile.hpp"

#include "kernels/hydrostatic/hydrostatic_columns.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

HydrostaticProfile::HydrostaticProfile(const Stream& stream, const HydrostaticBackground& background,
                                       const CellGeometry<2>& geometry, int nz)
    : density_cell_(stream.backend, nz + 2 * numerics::halo_width),
      rho_theta_cell_(stream.backend, nz + 2 * numerics::halo_width),
      density_face_(stream.backend, nz + 1),
      rho_theta_face_(stream.backend, nz + 1),
      pressure_face_(stream.backend, nz + 1),
      inv_rho_theta_cell_(stream.backend, nz + 2 * numerics::halo_width),
      pressure_cell_(stream.backend, nz + 2 * numerics::halo_width),
      inv_rho_theta_face_(stream.backend, nz + 1) {
  compute_hydrostatic_columns(
      stream, background, geometry, nz,
      {density_cell_.data(), rho_theta_cell_.data(), density_face_.data(), rho_theta_face_.data(),
       pressure_face_.data(), inv_rho_theta_cell_.data(), pressure_cell_.data(), inv_rho_theta_face_.data()});
}

HydrostaticView HydrostaticProfile::view() const {
  return {density_cell_.data(),  rho_theta_cell_.data(),     density_face_.data(),  rho_theta_face_.data(),
          pressure_face_.data(), inv_rho_theta_cell_.data(), pressure_cell_.data(), inv_rho_theta_face_.data()};
}

HydrostaticColumns HydrostaticProfile::to_host(const Stream& stream) const {
  return {density_cell_.copy_to_host(stream), rho_theta_cell_.copy_to_host(stream), density_face_.copy_to_host(stream),
          rho_theta_face_.copy_to_host(stream), pressure_face_.copy_to_host(stream)};
}

}  // namespace simapp
