#include "kernels/boundary/halo_fill.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/boundary/ghost_rules.hpp"

namespace simapp {

void fill_periodic_x_halos(const Stream& stream, FieldView<double, 2> state, VarRange vars,
                           const BoundaryConditions<2>& sides) {
  const int halo = state.shape.halo;
  const int nx = state.shape.nx;
  const bool low = sides.x_low.copies_periodic_image(), high = sides.x_high.copies_periodic_image();
  const IndexBox ghost_columns{0, 2 * halo, 0, state.shape.nz};
  parallel_for(
      "fill_periodic_x_halos", stream, ghost_columns, SIMAPP_LAMBDA(int g, int k) {
        if (g < halo ? !low : !high) return;
        const int i = g < halo ? g - halo : nx + g - halo;
        const int source = periodic_source(i, nx);
        for (int v = vars.first; v < vars.last; ++v) state(v, k, i) = state(v, k, source);
      });
}

void fill_wall_z_halos(const Stream& stream, FieldView<double, 2> state, VarRange vars, HydrostaticView background,
                       const BoundaryConditions<2>& sides) {
  const int halo = state.shape.halo;
  const int nz = state.shape.nz;
  const bool low = sides.z_low.is_wall(), high = sides.z_high.is_wall();
  const IndexBox ghost_rows{-halo, state.shape.nx + halo, 0, 2 * halo};
  parallel_for(
      "fill_wall_z_halos", stream, ghost_rows, SIMAPP_LAMBDA(int i, int g) {
        if (g < halo ? !low : !high) return;
        const int k = g < halo ? g - halo : nz + g - halo;
        const int adjacent = g < halo ? 0 : nz - 1;
        for (int v = vars.first; v < vars.last; ++v)
          state(v, k, i) =
              wall_ghost(v, state(v, adjacent, i), background.cell_density(adjacent), background.cell_density(k));
      });
}

void apply_inflow_halos(const Stream& stream, FieldView<double, 2> state, HydrostaticView background,
                        const CellGeometry<2>& geometry, const BoundaryConditions<2>& sides) {
  if (!sides.x_low.has_inflow()) return;
  const InflowProfile inflow = sides.inflow;
  const int halo = state.shape.halo;
  const IndexBox left_ghosts{-halo, 0, 0, state.shape.nz};
  parallel_for(
      "apply_inflow_halos", stream, left_ghosts, SIMAPP_LAMBDA(int i, int k) {
        if (!inflow.applies(geometry.z_center(k), geometry.zlen)) return;
        double q[var::count];
        for (int v = 0; v < var::count; ++v) q[v] = state(v, k, i);
        apply_inflow(q, background.cell_density(k), background.cell_rho_theta(k), inflow);
        state(var::umom, k, i) = q[var::umom];
        state(var::rhot, k, i) = q[var::rhot];
      });
}

}  // namespace simapp
