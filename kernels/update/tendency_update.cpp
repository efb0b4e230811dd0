#include "kernels/update/tendency_update.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

/// R(v) at cell (i, k).
SIMAPP_HOST_DEVICE inline double stage_tendency(bool x_pass, int v, int k, int i, const FieldView<const double>& forcing,
                                                const FieldView<const double>& flux, const FluxContext& context,
                                                const Bump& wave_source) {
  double tendency = x_pass ? -(flux(v, k, i + 1) - flux(v, k, i)) / context.geometry.dx
                           : -(flux(v, k + 1, i) - flux(v, k, i)) / context.geometry.dz;
  if (v == var::wmom) {
    if (!x_pass) tendency -= forcing(var::dens, k, i) * physics::gravity;
    if (wave_source.amplitude != 0.0)
      tendency += wave_source(context.geometry.x_center(i), context.geometry.z_center(k)) *
                  context.background.cell_density(k);
  }
  return tendency;
}

SIMAPP_HOST_DEVICE inline double stage_update(double init, double tendency, const FluxContext& context) {
  return init + context.params->dt / context.stage_divisor * tendency;
}

IndexBox interior(const FieldShape& shape) { return {0, shape.nx, 0, shape.nz}; }

}  // namespace

void apply_tendency_update(const Stream& stream, Direction direction, const StageFields& fields,
                           VarRange vars, const FluxContext& context, const Bump& wave_source) {
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  const bool x_pass = direction == Direction::x;
  parallel_for(x_pass ? "apply_tendency_update_x" : "apply_tendency_update_z", stream, interior(out.shape),
               SIMAPP_LAMBDA(int i, int k) {
    for (int v = vars.first; v < vars.last; ++v)
      out(v, k, i) = stage_update(init(v, k, i), stage_tendency(x_pass, v, k, i, forcing, flux, context, wave_source),
                                  context);
  });
}

void compute_tendencies(const Stream& stream, Direction direction, FieldView<const double> forcing,
                        FieldView<const double> flux, FieldView<double> tendency, VarRange vars,
                        const FluxContext& context, const Bump& wave_source) {
  const bool x_pass = direction == Direction::x;
  parallel_for(x_pass ? "compute_tendencies_x" : "compute_tendencies_z", stream, interior(tendency.shape),
               SIMAPP_LAMBDA(int i, int k) {
    for (int v = vars.first; v < vars.last; ++v)
      tendency(v, k, i) = stage_tendency(x_pass, v, k, i, forcing, flux, context, wave_source);
  });
}

void apply_updates(const Stream& stream, FieldView<const double> init, FieldView<const double> tendency,
                   FieldView<double> out, VarRange vars, const FluxContext& context) {
  parallel_for("apply_updates", stream, interior(out.shape), SIMAPP_LAMBDA(int i, int k) {
    for (int v = vars.first; v < vars.last; ++v) out(v, k, i) = stage_update(init(v, k, i), tendency(v, k, i), context);
  });
}

}  // namespace simapp
