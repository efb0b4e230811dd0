#pragma once
/// One Runge–Kutta stage of a split pass of the 3-D model from a flux array (fluxes_3d.hpp):
/// q_out = q_init + dt_stage · R(q_forcing), with the stage kernel's point functions
/// (stage_tendency_3d.hpp). `apply_tendency_update_3d` does it in one kernel (fused);
/// `compute_tendencies_3d` + `apply_updates_3d` split it per variable (fine).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The arrays of one 3-D stage. `out` may be `init` (a point-wise update); it must not be `forcing`.
struct StageFields3d {
  FieldView<const double, 3> init;
  FieldView<const double, 3> forcing;
  FieldView<const double, 3> flux;
  FieldView<double, 3> out;
};

/// out(v) = init(v) + dt_stage · R(v) over the interior, for v ∈ vars.
void apply_tendency_update_3d(const Stream& stream, Direction direction, const StageFields3d& fields, VarRange vars,
                              const FluxContext<3>& context, const Bump<3>& wave_source);

/// tendency(v) = R(v) over the interior (tendency: nx × ny × nz, no ghosts), for v ∈ vars.
void compute_tendencies_3d(const Stream& stream, Direction direction, FieldView<const double, 3> forcing,
                           FieldView<const double, 3> flux, FieldView<double, 3> tendency, VarRange vars,
                           const FluxContext<3>& context, const Bump<3>& wave_source);

/// out(v) = init(v) + dt_stage · tendency(v) over the interior, for v ∈ vars.
void apply_updates_3d(const Stream& stream, FieldView<const double, 3> init, FieldView<const double, 3> tendency,
                      FieldView<double, 3> out, VarRange vars, const FluxContext<3>& context);

}  // namespace simapp
