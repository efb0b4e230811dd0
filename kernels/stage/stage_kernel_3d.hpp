#pragma once
/// One Runge–Kutta stage of a split pass of the 3-D model (grid.ny > 1) in one kernel:
///   q_out = q_init + dt_stage · R(q_forcing),
///   R = −(F_{i+1} − F_i)/dx, −(G_{j+1} − G_j)/dy or −(H_{k+1} − H_k)/dz (+ sources),
/// the 2-D stage kernel's scheme (stage_kernel.hpp) with the y pass beside its x and z passes,
/// from the same point functions instantiated for ModelVariables<3> (face_flux_3d.hpp,
/// stage_tendency_3d.hpp, ghost_rules.hpp), so that a state uniform in y gives the 2-D model's
/// numbers at every j, and the fused and fine granularities (fluxes_3d.hpp,
/// tendency_update_3d.hpp) the stage kernel's.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The arrays of one 3-D stage, of one shape. `out` may be `init`; it must not be `forcing`.
struct StageArrays3d {
  const double* init = nullptr;
  const double* forcing = nullptr;
  double* out = nullptr;
  FieldShape<3> shape;

  SIMAPP_HOST_DEVICE const double* init_at(int k, int j, int i) const { return init + shape.offset(0, k, j, i); }
  SIMAPP_HOST_DEVICE const double* forcing_at(int k, int j, int i) const { return forcing + shape.offset(0, k, j, i); }
  SIMAPP_HOST_DEVICE double* out_at(int k, int j, int i) const { return out + shape.offset(0, k, j, i); }
};

/// The arrays of a stage from views of one shape.
inline StageArrays3d stage_arrays(const FieldView<const double, 3>& init, const FieldView<const double, 3>& forcing,
                                  const FieldView<double, 3>& out) {
  return {init.data, forcing.data, out.data, out.shape};
}

/// The stage of the pass along `direction` for the interior cells in `cells`; the ghost cells of
/// the pass's sides are made by the rule `sides` names as the kernel loads a tile, or read from
/// memory where a halo exchange put them. `wave_source` forces ρw in the x and z passes.
void apply_stage_3d(const Stream& stream, Direction direction, const StageArrays3d& arrays,
                    const FluxContext<3>& context, const Bump<3>& wave_source, const BoundaryConditions<3>& sides,
                    const CellBox& cells);

/// The cells whose stencils along `direction` read no ghost cell (2 … n − 3 of the n along it),
/// so that a stage can update them while halos travel, and the two at the low and at the high
/// end, which wait for them. Splitting needs n ≥ 4.
CellBox stage_interior_cells_3d(Direction direction, const FieldShape<3>& shape);
CellBox stage_low_cells_3d(Direction direction, const FieldShape<3>& shape);
CellBox stage_high_cells_3d(Direction direction, const FieldShape<3>& shape);

}  // namespace simapp
