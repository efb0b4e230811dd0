#include "solver/state/hydrostatic_profile.hpp"

#include "kernels/backend/device_runtime.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

HydrostaticProfile::HydrostaticProfile(const Stream& stream, int nz)
    : density_cell_(stream.backend, nz + 2 * numerics::halo_width),
      rho_theta_cell_(stream.backend, nz + 2 * numerics::halo_width),
      density_face_(stream.backend, nz + 1),
      rho_theta_face_(stream.backend, nz + 1),
      pressure_face_(stream.backend, nz + 1),
      inv_rho_theta_cell_(stream.backend, nz + 2 * numerics::halo_width),
      pressure_cell_(stream.backend, nz + 2 * numerics::halo_width),
      inv_rho_theta_face_(stream.backend, nz + 1) {}

HydrostaticProfile::HydrostaticProfile(const Stream& stream, const HydrostaticBackground& background,
                                       const CellGeometry<2>& geometry, int nz)
    : HydrostaticProfile(stream, nz) {
  compute_hydrostatic_columns(stream, background, geometry, nz, arrays());
}

HydrostaticProfile::HydrostaticProfile(const Stream& stream, const HydrostaticColumns& columns, int nz)
    : HydrostaticProfile(stream, nz) {
  const auto to_backend = [&](DeviceBuffer<double>& buffer, const std::vector<double>& values) {
    device::copy_async(stream, buffer.data(), values.data(), buffer.size() * sizeof(double),
                       device::CopyDirection::host_to_device);
  };
  to_backend(density_cell_, columns.density_cell);
  to_backend(rho_theta_cell_, columns.rho_theta_cell);
  to_backend(density_face_, columns.density_face);
  to_backend(rho_theta_face_, columns.rho_theta_face);
  if (!columns.wind_cell.empty()) {
    wind_cell_ = DeviceBuffer<double>(stream.backend, columns.wind_cell.size());
    to_backend(wind_cell_, columns.wind_cell);
  }
  derive_hydrostatic_pressures(stream, nz, arrays());
  device::synchronize(stream);
}

HydrostaticArrays HydrostaticProfile::arrays() const {
  return {density_cell_.data(),  rho_theta_cell_.data(),     density_face_.data(),  rho_theta_face_.data(),
          pressure_face_.data(), inv_rho_theta_cell_.data(), pressure_cell_.data(), inv_rho_theta_face_.data()};
}

HydrostaticView HydrostaticProfile::view() const {
  HydrostaticView view{density_cell_.data(),   rho_theta_cell_.data(),    density_face_.data(),
                       rho_theta_face_.data(), pressure_face_.data(),     inv_rho_theta_cell_.data(),
                       pressure_cell_.data(),  inv_rho_theta_face_.data()};
  if (wind_cell_.size() > 0) {
    view.wind_cell = wind_cell_.data();
    view.wind_stride = static_cast<int>(wind_cell_.size() / 2);
  }
  return view;
}

HydrostaticColumns HydrostaticProfile::to_host(const Stream& stream) const {
  return {density_cell_.copy_to_host(stream),
          rho_theta_cell_.copy_to_host(stream),
          density_face_.copy_to_host(stream),
          rho_theta_face_.copy_to_host(stream),
          pressure_face_.copy_to_host(stream),
          wind_cell_.size() > 0 ? wind_cell_.copy_to_host(stream) : std::vector<double>{}};
}

}  // namespace simapp
