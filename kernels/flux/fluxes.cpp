#include "kernels/flux/fluxes.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"

namespace simapp {

void compute_fluxes(const Stream& stream, Direction direction, FieldView<const double> forcing,
                    FieldView<double> flux, VarRange vars, const FluxContext& context) {
  const int nx = forcing.shape.nx;
  const int nz = forcing.shape.nz;
  const CellGeometry geometry = context.geometry;
  const HydrostaticView background = context.background;
  const StepParams* params = context.params;
  const double stage_divisor = context.stage_divisor;

  if (direction == Direction::x) {
    parallel_for("compute_fluxes_x", stream, IndexBox{0, nx + 1, 0, nz}, SIMAPP_LAMBDA(int i, int k) {
      double q[var::count], d3[var::count], f[var::count];
      for (int v = 0; v < var::count; ++v) {
        const double q0 = forcing(v, k, i - 2), q1 = forcing(v, k, i - 1);
        const double q2 = forcing(v, k, i), q3 = forcing(v, k, i + 1);
        q[v] = face_value(q0, q1, q2, q3);
        d3[v] = third_difference(q0, q1, q2, q3);
      }
      const double k_hyper = hyperviscosity_coefficient(geometry.dx, params->dt / stage_divisor);
      x_face_flux(q, d3, background.cell_density(k), background.cell_rho_theta(k), k_hyper, f);
      for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
    });
  } else {
    parallel_for("compute_fluxes_z", stream, IndexBox{0, nx, 0, nz + 1}, SIMAPP_LAMBDA(int i, int k) {
      double q[var::count], d3[var::count], f[var::count];
      for (int v = 0; v < var::count; ++v) {
        const double q0 = forcing(v, k - 2, i), q1 = forcing(v, k - 1, i);
        const double q2 = forcing(v, k, i), q3 = forcing(v, k + 1, i);
        q[v] = face_value(q0, q1, q2, q3);
        d3[v] = third_difference(q0, q1, q2, q3);
      }
      const int global_k = geometry.k_offset + k;
      const bool at_wall = global_k == 0 || global_k == geometry.global_nz;
      const double k_hyper = hyperviscosity_coefficient(geometry.dz, params->dt / stage_divisor);
      z_face_flux(q, d3, background.density_face[k], background.rho_theta_face[k],
                  background.pressure_face[k], at_wall, k_hyper, f);
      for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
    });
  }
}

}  // namespace simapp
