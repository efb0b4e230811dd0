#include "kernels/update/tracer_transport.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/tracer_transport_cell.hpp"

namespace simapp {

namespace {

template <Direction D, int Dims>
void transport_along(const Stream& stream, const TracerStageFields<Dims>& fields, VarRange tracers,
                     const FluxContext<Dims>& context, const TracerBackground& background) {
  const FieldView<const double, Dims> forcing = fields.forcing, init = fields.init;
  const FieldView<double, Dims> out = fields.out;
  parallel_for_cells<Dims>(
      direction_label<D>("tracer_transport_x", "tracer_transport_y", "tracer_transport_z"), stream,
      interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        // The stage's input with its ghost cells in memory (filled or received).
        transport_tracers_at<D>(forcing, init, out, tracers, context, background, i, j, k);
      });
}

}  // namespace

template <int Dims>
void apply_tracer_transport(const Stream& stream, Direction direction, const TracerStageFields<Dims>& fields,
                            VarRange tracers, const FluxContext<Dims>& context, const TracerBackground& background) {
  with_direction_of<Dims>(
      direction, [&](auto d) { transport_along<decltype(d)::value>(stream, fields, tracers, context, background); });
}

template void apply_tracer_transport(const Stream&, Direction, const TracerStageFields<2>&, VarRange,
                                     const FluxContext<2>&, const TracerBackground&);
template void apply_tracer_transport(const Stream&, Direction, const TracerStageFields<3>&, VarRange,
                                     const FluxContext<3>&, const TracerBackground&);

}  // namespace simapp
