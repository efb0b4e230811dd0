#include "solver/state/hydrostatic_profile.hpp"

#include "kernels/initial_conditions/gauss_legendre.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"

namespace simapp {

HydrostaticColumns make_hydrostatic_columns(const HydrostaticBackground& background,
                                            const CellGeometry& geometry, int nz) {
  constexpr int halo = numerics::halo_width;
  HydrostaticColumns columns;
  for (int k = -halo; k < nz + halo; ++k) {
    double density = 0.0, rho_theta = 0.0;
    for (int q = 0; q < gauss_legendre::num_points; ++q) {
      const double z = geometry.z_center(k) + (gauss_legendre::point(q) - 0.5) * geometry.dz;
      const HydrostaticPoint point = background.at(z);
      density += point.density * gauss_legendre::weight(q);
      rho_theta += point.density * point.theta * gauss_legendre::weight(q);
    }
    columns.density_cell.push_back(density);
    columns.rho_theta_cell.push_back(rho_theta);
  }
  for (int k = 0; k <= nz; ++k) {
    const HydrostaticPoint point = background.at((geometry.k_offset + k) * geometry.dz);
    const double rho_theta = point.density * point.theta;
    columns.density_face.push_back(point.density);
    columns.rho_theta_face.push_back(rho_theta);
    columns.pressure_face.push_back(physics::pressure(rho_theta));
  }
  return columns;
}

namespace {
DeviceBuffer<double> upload(const Stream& stream, const std::vector<double>& values) {
  DeviceBuffer<double> buffer(stream.backend, values.size());
  buffer.copy_from_host(stream, values);
  return buffer;
}
}  // namespace

HydrostaticProfile::HydrostaticProfile(const Stream& stream, const HydrostaticColumns& columns)
    : density_cell_(upload(stream, columns.density_cell)),
      rho_theta_cell_(upload(stream, columns.rho_theta_cell)),
      density_face_(upload(stream, columns.density_face)),
      rho_theta_face_(upload(stream, columns.rho_theta_face)),
      pressure_face_(upload(stream, columns.pressure_face)) {}

HydrostaticView HydrostaticProfile::view() const {
  return {density_cell_.data(), rho_theta_cell_.data(), density_face_.data(), rho_theta_face_.data(),
          pressure_face_.data()};
}

}  // namespace simapp
