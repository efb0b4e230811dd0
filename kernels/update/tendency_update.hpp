#pragma once
/// One Runge–Kutta stage of a split pass from a flux array: q_out = q_init + dt_stage · R(q_forcing)
/// (the point functions in stage_tendency.hpp). `apply_tendency_update` does it in one kernel;
/// `compute_tendencies` + `apply_updates` split it per variable with the same arithmetic.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The arrays of one stage. `out` may be `init` (a point-wise update); it must not be `forcing`.
struct StageFields {
  FieldView<const double, 2> init;
  FieldView<const double, 2> forcing;
  FieldView<const double, 2> flux;
  FieldView<double, 2> out;
};

void apply_tendency_update(const Stream& stream, Direction direction, const StageFields& fields, VarRange vars,
                           const FluxContext<2>& context, const Bump<2>& wave_source);

/// tendency(v) = R(v) over the interior, for v ∈ vars.
void compute_tendencies(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                        FieldView<const double, 2> flux, FieldView<double, 2> tendency, VarRange vars,
                        const FluxContext<2>& context, const Bump<2>& wave_source);

/// out(v) = init(v) + dt_stage · tendency(v) over the interior, for v ∈ vars.
void apply_updates(const Stream& stream, FieldView<const double, 2> init, FieldView<const double, 2> tendency,
                   FieldView<double, 2> out, VarRange vars, const FluxContext<2>& context);

}  // namespace simapp
