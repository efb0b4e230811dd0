#pragma once
/// Face fluxes of one split pass, for every face of the rank's interior along the pass (face i
/// between cells i − 1 and i): x: faces i ∈ [0, nx] of the rows (j, k); y (3-D): faces j ∈ [0, ny]
/// of the columns (i, k); z: faces k ∈ [0, nz] of the columns (i, j). Two granularities compute
/// the same numbers with face_flux, the stage kernel's point function, reading their ghost cells
/// from memory: `compute_fluxes` reconstructs and fluxes in one kernel (fused);
/// `reconstruct_faces` + `compute_fluxes_from_faces` split it per variable (fine). The face arrays
/// are face_shape: one more face than cells along each of the model's axes, no ghosts.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The shape of a face array for the cells of `cells`: one more face than cells along each axis.
template <int Dims>
FieldShape<Dims> face_shape(const FieldShape<Dims>& cells) {
  return {cells.nx + 1, Dims == 3 ? cells.ny + 1 : 1, cells.nz + 1, 0, cells.num_vars};
}

/// The faces of the pass along `direction` over the cells of `cells`.
template <int Dims>
CellBox face_box(Direction direction, const FieldShape<Dims>& cells) {
  return {0, cells.nx + (direction == Direction::x ? 1 : 0), 0, cells.ny + (direction == Direction::y ? 1 : 0),
          0, cells.nz + (direction == Direction::z ? 1 : 0)};
}

/// Which faces a flux launch computes. Interior faces read no ghost cell (in the pass's
/// direction: faces [2, n − 1) of n cells), so they can be computed while halos travel;
/// boundary faces (0, 1, n − 1, n) need the ghosts. Splitting needs n ≥ 4.
enum class FaceRegion { all, interior, boundary };

/// flux(v) for v ∈ vars on the faces of `region`, from the stage input `forcing` (its ghosts along
/// the pass filled for boundary faces), reconstructing inline.
template <class Real, int Dims>
void compute_fluxes(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                    FieldView<Real, Dims> flux, VarRange vars, const FluxContext<Dims>& context,
                    FaceRegion region = FaceRegion::all);

/// face_value(v) = q_f and face_d3(v) = d3 of `forcing` at every face of the pass, for v ∈ vars.
template <class Real, int Dims>
void reconstruct_faces(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                       FieldView<Real, Dims> face_value, FieldOf<Real, Dims> face_d3, VarRange vars);

/// flux(v) for v ∈ vars from the face values of every variable and d3 of v (and, with
/// physics.viscosity, the cells of `forcing` either side of the face).
template <class Real, int Dims>
void compute_fluxes_from_faces(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                               FieldOf<const Real, Dims> face_value, FieldOf<const Real, Dims> face_d3,
                               FieldView<Real, Dims> flux, VarRange vars, const FluxContext<Dims>& context);

}  // namespace simapp
