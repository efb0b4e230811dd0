#pragma once
/// Face fluxes of one split pass of the 3-D model, for every face of the rank's interior along
/// the pass (face i between cells i − 1 and i): x: faces i ∈ [0, nx] of the rows (j, k); y:
/// faces j ∈ [0, ny] of the columns (i, k); z: faces k ∈ [0, nz] of the columns (i, j). The fused
/// granularity reconstructs and fluxes in one kernel (`compute_fluxes_3d`), the fine one splits
/// it per variable (`reconstruct_faces_3d`, `compute_fluxes_from_faces_3d`); both apply
/// face_flux_3d, the stage kernel's point function, and read their ghost cells from memory.
/// The face arrays are face_shape_3d: (nx + 1) × (ny + 1) × (nz + 1) faces, no ghosts.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The shape of a face array for the cells of `cells`: one more face than cells along each axis.
inline FieldShape<3> face_shape_3d(const FieldShape<3>& cells) {
  return {cells.nx + 1, cells.ny + 1, cells.nz + 1, 0, cells.num_vars};
}

/// The faces of the pass along `direction` over the cells of `cells`.
CellBox face_box_3d(Direction direction, const FieldShape<3>& cells);

/// flux(v) for v ∈ vars on the faces of `region` (FaceRegion: all; interior, the faces that read
/// no ghost cell, [2, n − 1); boundary, faces 0, 1, n − 1 and n), from the stage input `forcing`
/// (its ghosts along the pass filled for boundary faces), reconstructing inline.
void compute_fluxes_3d(const Stream& stream, Direction direction, FieldView<const double, 3> forcing,
                       FieldView<double, 3> flux, VarRange vars, const FluxContext<3>& context,
                       FaceRegion region = FaceRegion::all);

/// face_value(v) = q_f and face_d3(v) = d3 of `forcing` at every face of the pass, for v ∈ vars.
void reconstruct_faces_3d(const Stream& stream, Direction direction, FieldView<const double, 3> forcing,
                          FieldView<double, 3> face_value, FieldView<double, 3> face_d3, VarRange vars);

/// flux(v) for v ∈ vars from the face values of all five variables and d3 of v (and, with
/// physics.viscosity, the cells of `forcing` either side of the face).
void compute_fluxes_from_faces_3d(const Stream& stream, Direction direction, FieldView<const double, 3> forcing,
                                  FieldView<const double, 3> face_value, FieldView<const double, 3> face_d3,
                                  FieldView<double, 3> flux, VarRange vars, const FluxContext<3>& context);

}  // namespace simapp
