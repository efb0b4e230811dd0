#pragma once
/// Face fluxes of one split pass, for every face of the rank's interior:
/// x: faces i ∈ [0, nx] (face i between cells i−1 and i), rows k ∈ [0, nz);
/// z: faces k ∈ [0, nz], columns i ∈ [0, nx).
/// Two granularities compute the same numbers: `compute_fluxes` reconstructs and fluxes in
/// one kernel; `reconstruct_faces` + `compute_fluxes_from_faces` split it per variable.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/index_box.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The faces of a pass over nx × nz interior cells.
inline IndexBox face_box(Direction direction, int nx, int nz) {
  return direction == Direction::x ? IndexBox{0, nx + 1, 0, nz} : IndexBox{0, nx, 0, nz + 1};
}

/// Which faces a flux launch computes. Interior faces read no ghost cell (in the pass's
/// direction: faces [2, n − 1) of n cells), so they can be computed while halos travel;
/// boundary faces (0, 1, n − 1, n) need the ghosts. Splitting needs n ≥ 4.
enum class FaceRegion { all, interior, boundary };

/// flux(v) for v ∈ vars, on the faces of `region`, from the state `forcing` (whose ghosts
/// must be filled for boundary faces), reconstructing inline.
void compute_fluxes(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                    FieldView<double, 2> flux, VarRange vars, const FluxContext<2>& context,
                    FaceRegion region = FaceRegion::all);

/// face_value(v) = q_f and face_d3(v) = d3 of `forcing` at every face, for v ∈ vars.
void reconstruct_faces(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                       FieldView<double, 2> face_value, FieldView<double, 2> face_d3, VarRange vars);

/// flux(v) for v ∈ vars from the face values of all four variables and d3 of v (and, with
/// physics.viscosity, the cells of `forcing` either side of the face).
void compute_fluxes_from_faces(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                               FieldView<const double, 2> face_value, FieldView<const double, 2> face_d3,
                               FieldView<double, 2> flux, VarRange vars, const FluxContext<2>& context);

}  // namespace simapp
