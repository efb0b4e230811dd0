#pragma once
/// One Runge–Kutta stage of a split pass in one kernel (execution.granularity: stage):
///   q_out = q_init + dt_stage · R(q_forcing),  R = −(F_{i+1} − F_i)/dx or −(H_{k+1} − H_k)/dz (+ sources),
/// with the same point functions, in the same order, as the fused and fine kernels
/// (reconstruction, face_flux.hpp, stage_tendency.hpp, ghost_rules.hpp). Each tile of cells
/// loads the stage input with its ghost cells, computes its faces' fluxes on chip and writes
/// the update: the stage input and the step's initial state are read once (once in all in
/// the first stage, where they are the same array), the output written once.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/index_box.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The arrays of one stage, of one shape. `out` may be `init`; it must not be `forcing`. One
/// shape for the three keeps the stage kernel's launch parameter small
/// (docs/performance/journal/2026-12-02-step-as-data.md).
struct StageArrays {
  const double* init = nullptr;
  const double* forcing = nullptr;
  double* out = nullptr;
  FieldShape<2> shape;

  SIMAPP_HOST_DEVICE const double* init_at(int k, int i) const { return init + shape.offset(0, k, i); }
  SIMAPP_HOST_DEVICE const double* forcing_at(int k, int i) const { return forcing + shape.offset(0, k, i); }
  SIMAPP_HOST_DEVICE double* out_at(int k, int i) const { return out + shape.offset(0, k, i); }
};

/// The arrays of a stage from views of one shape.
inline StageArrays stage_arrays(const FieldView<const double, 2>& init, const FieldView<const double, 2>& forcing,
                                const FieldView<double, 2>& out) {
  return {init.data, forcing.data, out.data, out.shape};
}

/// The stage for the interior cells in `cells` (all of them, or the part of an overlapped
/// exchange: cells whose stencil needs no ghost cell, then the rest). The ghost cells of the
/// pass's sides are made by the rule `sides` names as the kernel loads a tile, or read from
/// memory where a halo exchange put them.
void apply_stage(const Stream& stream, Direction direction, const StageArrays& arrays, const FluxContext<2>& context,
                 const Bump<2>& wave_source, const BoundaryConditions<2>& sides, const IndexBox& cells);

/// The cells of a pass whose stencil reads no ghost cell ([2, n − 2) along the pass), and the
/// two strips of two cells next to the ghosts.
IndexBox stage_interior_cells(Direction direction, int nx, int nz);
IndexBox stage_low_cells(Direction direction, int nx, int nz);
IndexBox stage_high_cells(Direction direction, int nx, int nz);

}  // namespace simapp
