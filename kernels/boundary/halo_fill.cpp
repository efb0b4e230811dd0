#include "kernels/boundary/halo_fill.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/initial_conditions/case_profile.hpp"

namespace simapp {

void fill_periodic_x_halos(const Stream& stream, FieldView<double> state, VarRange vars) {
  const int halo = state.shape.halo;
  const int nx = state.shape.nx;
  const IndexBox ghost_columns{0, 2 * halo, 0, state.shape.nz};
  parallel_for("fill_periodic_x_halos", stream, ghost_columns, SIMAPP_LAMBDA(int g, int k) {
    const int i = g < halo ? g - halo : nx + g - halo;
    const int source = g < halo ? i + nx : i - nx;
    for (int v = vars.first; v < vars.last; ++v) state(v, k, i) = state(v, k, source);
  });
}

void fill_wall_z_halos(const Stream& stream, FieldView<double> state, VarRange vars,
                       HydrostaticView background, HaloSides walls) {
  const int halo = state.shape.halo;
  const int nz = state.shape.nz;
  const IndexBox ghost_rows{-halo, state.shape.nx + halo, 0, 2 * halo};
  parallel_for("fill_wall_z_halos", stream, ghost_rows, SIMAPP_LAMBDA(int i, int g) {
    if (g < halo ? !walls.low : !walls.high) return;
    const int k = g < halo ? g - halo : nz + g - halo;
    const int adjacent = g < halo ? 0 : nz - 1;
    for (int v = vars.first; v < vars.last; ++v) {
      if (v == var::wmom) {
        state(v, k, i) = 0.0;
      } else if (v == var::umom) {
        state(v, k, i) = state(v, adjacent, i) / background.cell_density(adjacent) * background.cell_density(k);
      } else {
        state(v, k, i) = state(v, adjacent, i);
      }
    }
  });
}

void apply_injection_inflow(const Stream& stream, FieldView<double> state, HydrostaticView background,
                            const CellGeometry& geometry) {
  if (geometry.i_offset != 0) return;  // only the rank at the global left boundary
  const int halo = state.shape.halo;
  const IndexBox left_ghosts{-halo, 0, 0, state.shape.nz};
  const InjectionInflow inflow;
  parallel_for("apply_injection_inflow", stream, left_ghosts, SIMAPP_LAMBDA(int i, int k) {
    if (!InjectionInflow::applies(geometry.z_center(k), geometry.zlen)) return;
    const double density = state(var::dens, k, i) + background.cell_density(k);
    state(var::umom, k, i) = density * inflow.u;
    state(var::rhot, k, i) = density * inflow.theta - background.cell_rho_theta(k);
  });
}

}  // namespace simapp
