#include "kernels/diagnostics/mass_energy.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

namespace {

/// ρ and e of a cell from its stored values (perturbations) and row k's background; kinetic is
/// ρu² + ρw² (+ ρv²) / ρ's velocities squared summed, u² + w² (+ v²).
struct CellDensities {
  double mass, energy;
};

SIMAPP_HOST_DEVICE inline double cell_theta(double rho_theta_perturbation, double r, const HydrostaticView& background,
                                            int k) {
  return (rho_theta_perturbation + background.cell_rho_theta(k)) / r;
}

SIMAPP_HOST_DEVICE inline CellDensities cell_densities(double r, double velocity_squared, double theta) {
  const double t = physics::temperature(theta, physics::pressure(r * theta));
  return {r, r * velocity_squared + r * physics::cv * t};
}

}  // namespace

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
          const CellDensities cell =
              cell_densities(r, u * u + w * w, cell_theta(state(var::rhot, k, i), r, background, k));
          mass.add(cell.mass, density_scale_bits);
          energy.add(cell.energy, energy_scale_bits);
        }
        row_sums[k] = mass;
        row_sums[nz + k] = energy;
      });
}

void sum_mass_energy_rows_3d(const Stream& stream, FieldView3d<const double> state, HydrostaticView background,
                             ExactSum* row_sums) {
  using V = ModelVariables<3>;
  const int nx = state.shape.nx, ny = state.shape.ny, nz = state.shape.nz;
  parallel_for(
      "sum_mass_energy_rows_3d", stream, IndexBox{0, 1, 0, nz}, SIMAPP_LAMBDA(int, int k) {
        ExactSum mass, energy;
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i) {
            const double r = state(V::dens, k, j, i) + background.cell_density(k);
            const double u = state(V::umom, k, j, i) / r;
            const double v = state(V::vmom, k, j, i) / r;
            const double w = state(V::wmom, k, j, i) / r;
            const CellDensities cell =
                cell_densities(r, u * u + v * v + w * w, cell_theta(state(V::rhot, k, j, i), r, background, k));
            mass.add(cell.mass, density_scale_bits);
            energy.add(cell.energy, energy_scale_bits);
          }
        row_sums[k] = mass;
        row_sums[nz + k] = energy;
      });
}

}  // namespace simapp
