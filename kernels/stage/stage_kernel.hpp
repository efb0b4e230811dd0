#pragma once
/// One Runge–Kutta stage of a split pass in one kernel (execution.granularity: stage):
///   q_out = q_init + dt_stage · R(q_forcing),
///   R = −(F_{i+1} − F_i)/dx, −(G_{j+1} − G_j)/dy (3-D) or −(H_{k+1} − H_k)/dz (+ sources),
/// with the same point functions, in the same order, as the fused and fine kernels
/// (reconstruction, face_flux.hpp, stage_tendency.hpp, ghost_rules.hpp). Each tile of cells
/// loads the stage input with its ghost cells, computes its faces' fluxes on chip and writes
/// the update: the stage input and the step's initial state are read once (once in all in
/// the first stage, where they are the same array), the output written once.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/update/source_terms.hpp"

namespace simapp {

/// The arrays of one stage, of one shape. `out` may be `init`; it must not be `forcing`. One
/// shape for the three keeps the stage kernel's launch parameter small
/// (docs/performance/journal/2026-12-02-step-as-data.md). Real: the state's type.
template <class Real, int Dims>
struct StageArrays {
  const Real* init = nullptr;
  const Real* forcing = nullptr;
  Real* out = nullptr;
  FieldShape<Dims> shape;

  SIMAPP_HOST_DEVICE const Real* init_at(int k, int j, int i) const { return init + shape.offset(0, k, j, i); }
  SIMAPP_HOST_DEVICE const Real* forcing_at(int k, int j, int i) const { return forcing + shape.offset(0, k, j, i); }
  SIMAPP_HOST_DEVICE Real* out_at(int k, int j, int i) const { return out + shape.offset(0, k, j, i); }
};

/// The arrays of a stage from views of one shape.
template <class Real, int Dims>
StageArrays<Real, Dims> stage_arrays(const FieldView<Real, Dims>& init, const FieldView<Real, Dims>& forcing,
                                     const FieldView<Real, Dims>& out) {
  return {init.data, forcing.data, out.data, out.shape};
}

/// The stage of the pass along `direction` for the interior cells in `cells` (all of them, or
/// the part of an overlapped exchange: cells whose stencil needs no ghost cell, then the rest).
/// The ghost cells of the pass's sides are made by the rule `sides` names as the kernel loads a
/// tile, or read from memory where a halo exchange put them. `sources` are the tendency's
/// source terms (source_terms.hpp).
template <class Real, int Dims>
void apply_stage(const Stream& stream, Direction direction, const StageArrays<Real, Dims>& arrays,
                 const FluxContext<Dims>& context, const SourceTerms<Dims>& sources,
                 const BoundaryConditions<Dims>& sides, const CellBox& cells);

/// The cells whose stencils along `direction` read no ghost cell (2 … n − 3 of the n along it),
/// so that a stage can update them while halos travel, and the two at the low and at the high
/// end, which wait for them. Splitting needs n ≥ 4.
template <int Dims>
CellBox stage_interior_cells(Direction direction, const FieldShape<Dims>& shape);
template <int Dims>
CellBox stage_low_cells(Direction direction, const FieldShape<Dims>& shape);
template <int Dims>
CellBox stage_high_cells(Direction direction, const FieldShape<Dims>& shape);

}  // namespace simapp
