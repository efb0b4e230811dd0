#include "kernels/boundary/halo_fill.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/boundary/ghost_rules.hpp"

namespace simapp {

namespace {

/// The kernel label of the fill `name` of the model in `Dims` dimensions (3-D: with "_3d").
template <int Dims>
const char* label(const char* name_2d, const char* name_3d) {
  return Dims == 3 ? name_3d : name_2d;
}

/// The periodic ghost cells of the pass along x (columns i) or y (rows j, 3-D): 2 · halo of
/// them beside each line of interior cells along the pass, those of the sides that copy their image.
template <Direction D, class Real, int Dims>
void fill_periodic(const Stream& stream, FieldView<Real, Dims> state, VarRange vars, const BoundaryCondition& low_side,
                   const BoundaryCondition& high_side) {
  constexpr bool x_pass = D == Direction::x;
  const bool low = low_side.copies_periodic_image(), high = high_side.copies_periodic_image();
  if (!low && !high) return;
  const FieldShape<Dims> shape = state.shape;
  const int halo = shape.halo, n = x_pass ? shape.nx : shape.ny;
  CellBox ghosts = interior_cells(shape);  // the ghost index g ∈ [0, 2 halo) along the pass
  (x_pass ? ghosts.i_hi : ghosts.j_hi) = 2 * halo;
  const char* name =
      x_pass ? label<Dims>("fill_periodic_x_halos", "fill_periodic_x_halos_3d") : "fill_periodic_y_halos_3d";
  parallel_for_cells<Dims>(
      name, stream, ghosts, SIMAPP_LAMBDA(int i, int j, int k) {
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

/// The wall ghost rows of the pass along z: beside the interior cells, and in 2-D also beside
/// the x ghost columns (the corner cells).
template <class Real, int Dims>
void fill_walls(const Stream& stream, FieldView<Real, Dims> state, VarRange vars, HydrostaticView background,
                const BoundaryConditions<2>& xz) {
  using V = ModelVariables<Dims>;
  const bool low = xz.z_low.is_wall(), high = xz.z_high.is_wall();
  if (!low && !high) return;
  const int halo = state.shape.halo, nz = state.shape.nz;
  CellBox ghosts = interior_cells(state.shape);
  ghosts.k_hi = 2 * halo;
  if constexpr (Dims == 2) {
    ghosts.i_lo = -halo;
    ghosts.i_hi = state.shape.nx + halo;
  }
  parallel_for_cells<Dims>(
      label<Dims>("fill_wall_z_halos", "fill_wall_z_halos_3d"), stream, ghosts, SIMAPP_LAMBDA(int i, int j, int g) {
        if (g < halo ? !low : !high) return;
        const int k = g < halo ? g - halo : nz + g - halo;
        const int adjacent = g < halo ? 0 : nz - 1;
        for (int v = vars.first; v < vars.last; ++v)
          state(v, k, j, i) =
              wall_ghost<V>(v, state(v, adjacent, j, i), background.cell_density(adjacent), background.cell_density(k));
      });
}

}  // namespace

template <int Dims>
bool fills_halos(Direction direction, const BoundaryConditions<Dims>& sides) {
  switch (direction) {
    case Direction::x: return sides.x_low.copies_periodic_image() || sides.x_high.copies_periodic_image();
    case Direction::y:
      if constexpr (Dims == 3)
        return sides.y_low.copies_periodic_image() || sides.y_high.copies_periodic_image();
      else
        return false;  // the 2-D model has no y pass
    case Direction::z: return sides.z_low.is_wall() || sides.z_high.is_wall();
  }
  return false;
}

template <class Real, int Dims>
void fill_halos(const Stream& stream, Direction direction, FieldView<Real, Dims> state, VarRange vars,
                HydrostaticView background, const BoundaryConditions<Dims>& sides) {
  switch (direction) {
    case Direction::x: fill_periodic<Direction::x>(stream, state, vars, sides.x_low, sides.x_high); return;
    case Direction::y:
      if constexpr (Dims == 3) fill_periodic<Direction::y>(stream, state, vars, sides.y_low, sides.y_high);
      return;
    case Direction::z: fill_walls(stream, state, vars, background, sides); return;
  }
}

template <class Real, int Dims>
void apply_inflow_halos(const Stream& stream, FieldView<Real, Dims> state, HydrostaticView background,
                        const CellGeometry<Dims>& geometry, const BoundaryConditions<Dims>& sides) {
  using V = ModelVariables<Dims>;
  if (!sides.x_low.has_inflow()) return;
  const InflowProfile inflow = sides.inflow;
  CellBox ghosts = interior_cells(state.shape);
  ghosts.i_lo = -state.shape.halo;
  ghosts.i_hi = 0;
  parallel_for_cells<Dims>(
      label<Dims>("apply_inflow_halos", "apply_inflow_halos_3d"), stream, ghosts, SIMAPP_LAMBDA(int i, int j, int k) {
        if (!inflow.applies(geometry.z_center(k), geometry.zlen)) return;
        Real q[V::count];
        for (int v = 0; v < V::count; ++v) q[v] = state(v, k, j, i);
        apply_inflow<V>(q, background.cell_density(k), background.cell_rho_theta(k), inflow);
        state(V::umom, k, j, i) = q[V::umom];
        state(V::rhot, k, j, i) = q[V::rhot];
      });
}

template bool fills_halos(Direction, const BoundaryConditions<2>&);
template bool fills_halos(Direction, const BoundaryConditions<3>&);
#define SIMAPP_HALO_FILL_OF(Real, Dims)                                                                              \
  template void fill_halos(const Stream&, Direction, FieldView<Real, Dims>, VarRange, HydrostaticView,               \
                           const BoundaryConditions<Dims>&);                                                         \
  template void apply_inflow_halos(const Stream&, FieldView<Real, Dims>, HydrostaticView, const CellGeometry<Dims>&, \
                                   const BoundaryConditions<Dims>&);
SIMAPP_HALO_FILL_OF(double, 2)
SIMAPP_HALO_FILL_OF(double, 3)
SIMAPP_HALO_FILL_OF(float, 2)
SIMAPP_HALO_FILL_OF(float, 3)
#undef SIMAPP_HALO_FILL_OF

}  // namespace simapp
