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
/// Real: the state's type (double or float).
template <class Real, int Dims>
struct StageFields {
  FieldView<const Real, Dims> init;
  FieldView<const Real, Dims> forcing;
  FieldView<const Real, Dims> flux;
  FieldView<Real, Dims> out;
};

/// out(v) = init(v) + dt_stage · R(v) over the interior, for v ∈ vars.
template <class Real, int Dims>
void apply_tendency_update(const Stream& stream, Direction direction, const StageFields<Real, Dims>& fields,
                           VarRange vars, const FluxContext<Dims>& context, const SourceTerms<Dims>& sources);

/// tendency(v) = R(v) over the interior (tendency: the interior cells, no ghosts), for v ∈ vars.
template <class Real, int Dims>
void compute_tendencies(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                        FieldOf<const Real, Dims> flux, FieldView<Real, Dims> tendency, VarRange vars,
                        const FluxContext<Dims>& context, const SourceTerms<Dims>& sources);

/// out(v) = init(v) + dt_stage · tendency(v) over the interior, for v ∈ vars.
template <class Real, int Dims>
void apply_updates(const Stream& stream, FieldOf<const Real, Dims> init, FieldOf<const Real, Dims> tendency,
                   FieldView<Real, Dims> out, VarRange vars, const FluxContext<Dims>& context);

}  // namespace simapp
