#include "kernels/diagnostics/mass_energy.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

void sum_mass_energy_rows(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                          ExactSum* row_sums) {
  const int nx = state.shape.nx;
  const int nz = state.shape.nz;
  parallel_for(
      "sum_mass_energy_rows", stream, IndexBox{0, 1, 0, nz}, SIMAPP_LAMBDA(int, int k) {
        ExactSum mass, energy;
        for (int i = 0; i < nx; ++i) {
          const double r = state(var::dens, k, i) + background.cell_density(k);
          const double u = state(var::umom, k, i) / r;
          const double w = state(var::wmom, k, i) / r;
          const double theta = (state(var::rhot, k, i) + background.cell_rho_theta(k)) / r;
          const double t = physics::temperature(theta, physics::pressure(r * theta));
          mass.add(r, density_scale_bits);
          energy.add(r * (u * u + w * w) + r * physics::cv * t, energy_scale_bits);
        }
        row_sums[k] = mass;
        row_sums[nz + k] = energy;
      });
}

}  // namespace simapp
