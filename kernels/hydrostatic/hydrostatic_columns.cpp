#include "kernels/hydrostatic/hydrostatic_columns.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"

namespace simapp {

void compute_hydrostatic_columns(const Stream& stream, const HydrostaticBackground& background,
                                 const CellGeometry<2>& geometry, int nz, HydrostaticArrays arrays) {
  constexpr int halo = numerics::halo_width;
  parallel_for(
      "hydrostatic_cell_averages", stream, IndexBox{0, 1, -halo, nz + halo}, SIMAPP_LAMBDA(int, int k) {
        double density = 0.0, rho_theta = 0.0;
        for (int q = 0; q < gauss_legendre::num_points; ++q) {
          const double z = geometry.z_center(k) + (gauss_legendre::point(q) - 0.5) * geometry.dz;
          const HydrostaticPoint point = background.at(z);
          density += point.density * gauss_legendre::weight(q);
          rho_theta += point.density * point.theta * gauss_legendre::weight(q);
        }
        arrays.density_cell[k + halo] = density;
        arrays.rho_theta_cell[k + halo] = rho_theta;
        arrays.inv_rho_theta_cell[k + halo] = 1.0 / rho_theta;
        arrays.pressure_cell[k + halo] = physics::pressure(rho_theta);
      });
  parallel_for(
      "hydrostatic_interfaces", stream, IndexBox{0, 1, 0, nz + 1}, SIMAPP_LAMBDA(int, int k) {
        const HydrostaticPoint point = background.at((geometry.k_offset + k) * geometry.dz);
        const double rho_theta = point.density * point.theta;
        arrays.density_face[k] = point.density;
        arrays.rho_theta_face[k] = rho_theta;
        arrays.pressure_face[k] = physics::pressure(rho_theta);
        arrays.inv_rho_theta_face[k] = 1.0 / rho_theta;
      });
}

void derive_hydrostatic_pressures(const Stream& stream, int nz, HydrostaticArrays arrays) {
  constexpr int halo = numerics::halo_width;
  parallel_for(
      "hydrostatic_cell_pressures", stream, IndexBox{0, 1, -halo, nz + halo}, SIMAPP_LAMBDA(int, int k) {
        const double rho_theta = arrays.rho_theta_cell[k + halo];
        arrays.inv_rho_theta_cell[k + halo] = 1.0 / rho_theta;
        arrays.pressure_cell[k + halo] = physics::pressure(rho_theta);
      });
  parallel_for(
      "hydrostatic_interface_pressures", stream, IndexBox{0, 1, 0, nz + 1}, SIMAPP_LAMBDA(int, int k) {
        const double rho_theta = arrays.rho_theta_face[k];
        arrays.pressure_face[k] = physics::pressure(rho_theta);
        arrays.inv_rho_theta_face[k] = 1.0 / rho_theta;
      });
}

}  // namespace simapp
