#pragma once
/// One Runge–Kutta stage of the tracers' transport along a split pass (docs/model.md,
/// "Tracers"), the same kernel in every granularity: for every interior cell and each tracer,
/// the fluxes at the cell's two faces along the pass from the stage's input (tracer_flux.hpp:
/// advection, hyperviscosity and, with physics.diffusivity, diffusion), then
/// out = init + dt_stage · (−(F_high − F_low) / Δ). The dry variables are read, never written.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The arrays of one stage of the tracers: qⁿ (`init`), the stage's input (`forcing`, whose
/// ghost cells along the pass are in memory: filled or received) and its output. `out` may be
/// `init` (a point-wise update); it must not be `forcing`.
template <class Real, int Dims>
struct TracerStageFields {
  FieldView<const Real, Dims> init;
  FieldView<const Real, Dims> forcing;
  FieldView<Real, Dims> out;
};

/// out(t) = init(t) + dt_stage · R(t) over the interior for the tracers t ∈ tracers, tracer t's
/// background profile background's t − tracers.first.
template <class Real, int Dims>
void apply_tracer_transport(const Stream& stream, Direction direction, const TracerStageFields<Real, Dims>& fields,
                            VarRange tracers, const FluxContext<Dims>& context, const TracerBackground& background);

}  // namespace simapp
