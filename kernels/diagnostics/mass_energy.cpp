#include "kernels/diagnostics/mass_energy.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

void sum_mass_energy_rows(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                          const CellGeometry& geometry, double* row_sums) {
  const int nx = state.shape.nx;
  const int nz = state.shape.nz;
  const double cell_area = geometry.dx * geometry.dz;
  parallel_for("sum_mass_energy_rows", stream, IndexBox{0, 1, 0, nz}, SIMAPP_LAMBDA(int, int k) {
    double mass = 0.0, energy = 0.0;
    for (int i = 0; i < nx; ++i) {
      const double r = state(var::dens, k, i) + background.cell_density(k);
      const double u = state(var::umom, k, i) / r;
      const double w = state(var::wmom, k, i) / r;
      const double theta = (state(var::rhot, k, i) + background.cell_rho_theta(k)) / r;
      const double t = physics::temperature(theta, physics::pressure(r * theta));
      mass += r * cell_area;
      energy += (r * (u * u + w * w) + r * physics::cv * t) * cell_area;
    }
    row_sums[k] = mass;
    row_sums[nz + k] = energy;
  });
}

}  // namespace simapp
