#include "kernels/update/tracer_transport.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/tracer_transport_cell.hpp"

namespace simapp {

namespace {

template <Direction D, class Real, int Dims>
void transport_along(const Stream& stream, const TracerStageFields<Real, Dims>& fields, VarRange tracers,
                     const FluxContext<Dims>& context, const TracerBackground& background) {
  const FieldView<const Real, Dims> forcing = fields.forcing, init = fields.init;
  const FieldView<Real, Dims> out = fields.out;
  parallel_for_cells<Dims>(
      direction_label<D>("tracer_transport_x", "tracer_transport_y", "tracer_transport_z"), stream,
      interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        // The stage's input with its ghost cells in memory (filled or received).
        transport_tracers_at<D>(forcing, init, out, tracers, context, background, i, j, k);
      });
}

}  // namespace

template <class Real, int Dims>
void apply_tracer_transport(const Stream& stream, Direction direction, const TracerStageFields<Real, Dims>& fields,
                            VarRange tracers, const FluxContext<Dims>& context, const TracerBackground& background) {
  with_direction_of<Dims>(
      direction, [&](auto d) { transport_along<decltype(d)::value>(stream, fields, tracers, context, background); });
}

#define SIMAPP_TRACER_TRANSPORT_OF(Real, Dims)                                                                   \
  template void apply_tracer_transport(const Stream&, Direction, const TracerStageFields<Real, Dims>&, VarRange, \
                                       const FluxContext<Dims>&, const TracerBackground&);
SIMAPP_TRACER_TRANSPORT_OF(double, 2)
SIMAPP_TRACER_TRANSPORT_OF(double, 3)
SIMAPP_TRACER_TRANSPORT_OF(float, 2)
SIMAPP_TRACER_TRANSPORT_OF(float, 3)
#undef SIMAPP_TRACER_TRANSPORT_OF

}  // namespace simapp
