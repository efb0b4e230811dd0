#include "kernels/boundary/halo_fill_3d.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/boundary/ghost_rules.hpp"

namespace simapp {

namespace {

using V = ModelVariables<3>;

/// The periodic ghost cells of the pass along x (columns i) or y (rows j): 2 · halo of them
/// beside each line of interior cells along the pass, those of the sides that copy their image.
template <Direction D>
void fill_periodic(const Stream& stream, FieldView<double, 3> state, VarRange vars, const BoundaryCondition& low_side,
                   const BoundaryCondition& high_side) {
  constexpr bool x_pass = D == Direction::x;
  const bool low = low_side.copies_periodic_image(), high = high_side.copies_periodic_image();
  if (!low && !high) return;
  const FieldShape<3> shape = state.shape;
  const int halo = shape.halo, n = x_pass ? shape.nx : shape.ny;
  CellBox ghosts = interior_cells(shape);  // the ghost index g ∈ [0, 2 halo) along the pass
  (x_pass ? ghosts.i_hi : ghosts.j_hi) = 2 * halo;
  parallel_for_cells<3>(
      x_pass ? "fill_periodic_x_halos_3d" : "fill_periodic_y_halos_3d", stream, ghosts,
      SIMAPP_LAMBDA(int i, int j, int k) {
        const int g = x_pass ? i : j;
        if (g < halo ? !low : !high) return;
        const int ghost = g < halo ? g - halo : n + g - halo;
        const int source = periodic_source(ghost, n);
        for (int v = vars.first; v < vars.last; ++v)
          if (x_pass)
            state(v, k, j, ghost) = state(v, k, j, source);
          else
            state(v, k, ghost, i) = state(v, k, source, i);
      });
}

/// The wall ghost layers of the pass along z.
void fill_walls(const Stream& stream, FieldView<double, 3> state, VarRange vars, HydrostaticView background,
                const BoundaryConditions<2>& xz) {
  const bool low = xz.z_low.is_wall(), high = xz.z_high.is_wall();
  if (!low && !high) return;
  const int halo = state.shape.halo, nz = state.shape.nz;
  CellBox ghosts = interior_cells(state.shape);
  ghosts.k_hi = 2 * halo;
  parallel_for_cells<3>(
      "fill_wall_z_halos_3d", stream, ghosts, SIMAPP_LAMBDA(int i, int j, int g) {
        if (g < halo ? !low : !high) return;
        const int k = g < halo ? g - halo : nz + g - halo;
        const int adjacent = g < halo ? 0 : nz - 1;
        for (int v = vars.first; v < vars.last; ++v)
          state(v, k, j, i) = wall_ghost_of<V>(v, state(v, adjacent, j, i), background.cell_density(adjacent),
                                               background.cell_density(k));
      });
}

}  // namespace

bool fills_halos_3d(Direction direction, const BoundaryConditions<3>& sides) {
  switch (direction) {
    case Direction::x: return sides.x_low.copies_periodic_image() || sides.x_high.copies_periodic_image();
    case Direction::y: return sides.y_low.copies_periodic_image() || sides.y_high.copies_periodic_image();
    case Direction::z: return sides.z_low.is_wall() || sides.z_high.is_wall();
  }
  return false;
}

void fill_halos_3d(const Stream& stream, Direction direction, FieldView<double, 3> state, VarRange vars,
                   HydrostaticView background, const BoundaryConditions<3>& sides) {
  switch (direction) {
    case Direction::x: fill_periodic<Direction::x>(stream, state, vars, sides.x_low, sides.x_high); return;
    case Direction::y: fill_periodic<Direction::y>(stream, state, vars, sides.y_low, sides.y_high); return;
    case Direction::z: fill_walls(stream, state, vars, background, sides.xz()); return;
  }
}

void apply_inflow_halos_3d(const Stream& stream, FieldView<double, 3> state, HydrostaticView background,
                           const CellGeometry<3>& geometry, const BoundaryConditions<3>& sides) {
  if (!sides.x_low.has_inflow()) return;
  const InflowProfile inflow = sides.inflow;
  CellBox ghosts = interior_cells(state.shape);
  ghosts.i_lo = -state.shape.halo;
  ghosts.i_hi = 0;
  parallel_for_cells<3>(
      "apply_inflow_halos_3d", stream, ghosts, SIMAPP_LAMBDA(int i, int j, int k) {
        if (!inflow.applies(geometry.z_center(k), geometry.zlen)) return;
        double q[V::count];
        for (int v = 0; v < V::count; ++v) q[v] = state(v, k, j, i);
        apply_inflow<V>(q, background.cell_density(k), background.cell_rho_theta(k), inflow);
        state(V::umom, k, j, i) = q[V::umom];
        state(V::rhot, k, j, i) = q[V::rhot];
      });
}

}  // namespace simapp
