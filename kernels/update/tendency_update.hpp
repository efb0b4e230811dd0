#pragma once
/// One Runge–Kutta stage of a split pass from a flux array (fluxes.hpp):
/// q_out = q_init + dt_stage · R(q_forcing), with the stage kernel's point functions
/// (stage_tendency.hpp). `apply_tendency_update` does it in one kernel (fused);
/// `compute_tendencies` + `apply_updates` split it per variable (fine).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/update/source_terms.hpp"

namespace simapp {

/// The arrays of one stage. `out` may be `init` (a point-wise update); it must not be `forcing`.
template <int Dims>
struct StageFields {
  FieldView<const double, Dims> init;
  FieldView<const double, Dims> forcing;
  FieldView<const double, Dims> flux;
  FieldView<double, Dims> out;
};

/// out(v) = init(v) + dt_stage · R(v) over the interior, for v ∈ vars.
template <int Dims>
void apply_tendency_update(const Stream& stream, Direction direction, const StageFields<Dims>& fields, VarRange vars,
                           const FluxContext<Dims>& context, const SourceTerms<Dims>& sources);

/// tendency(v) = R(v) over the interior (tendency: the interior cells, no ghosts), for v ∈ vars.
template <int Dims>
void compute_tendencies(const Stream& stream, Direction direction, FieldOf<const double, Dims> forcing,
                        FieldOf<const double, Dims> flux, FieldOf<double, Dims> tendency, VarRange vars,
                        const FluxContext<Dims>& context, const SourceTerms<Dims>& sources);

/// out(v) = init(v) + dt_stage · tendency(v) over the interior, for v ∈ vars.
template <int Dims>
void apply_updates(const Stream& stream, FieldOf<const double, Dims> init, FieldOf<const double, Dims> tendency,
                   FieldOf<double, Dims> out, VarRange vars, const FluxContext<Dims>& context);

}  // namespace simapp
