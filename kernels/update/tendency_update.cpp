#include "kernels/update/tendency_update.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

namespace {

IndexBox interior(const FieldShape<2>& shape) { return {0, shape.nx, 0, shape.nz}; }

/// R(v) at cell (i, k) from the flux array.
template <Direction D>
SIMAPP_HOST_DEVICE inline double tendency_at(int v, int k, int i, const FieldView<const double, 2>& forcing,
                                             const FieldView<const double, 2>& flux, double source,
                                             const StageFactors& factors) {
  const double high = D == Direction::x ? flux(v, k, i + 1) : flux(v, k + 1, i);
  const double density_perturbation = D == Direction::z && v == var::wmom ? forcing(var::dens, k, i) : 0.0;
  return stage_tendency<D>(v, flux(v, k, i), high, density_perturbation, source, factors);
}

template <Direction D>
void launch_tendency_update(const Stream& stream, const StageFields& fields, VarRange vars,
                            const FluxContext<2>& context, const Bump<2>& wave_source) {
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  parallel_for(
      D == Direction::x ? "apply_tendency_update_x" : "apply_tendency_update_z", stream, interior(out.shape),
      SIMAPP_LAMBDA(int i, int k) {
        const StageFactors factors = stage_factors<D>(context);
        const double source = momentum_source(k, i, context, wave_source);
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, i) =
              stage_update(init(v, k, i), tendency_at<D>(v, k, i, forcing, flux, source, factors), factors.dt);
      });
}

template <Direction D>
void launch_tendencies(const Stream& stream, FieldView<const double, 2> forcing, FieldView<const double, 2> flux,
                       FieldView<double, 2> tendency, VarRange vars, const FluxContext<2>& context,
                       const Bump<2>& wave_source) {
  parallel_for(
      D == Direction::x ? "compute_tendencies_x" : "compute_tendencies_z", stream, interior(tendency.shape),
      SIMAPP_LAMBDA(int i, int k) {
        const StageFactors factors = stage_factors<D>(context);
        const double source = momentum_source(k, i, context, wave_source);
        for (int v = vars.first; v < vars.last; ++v)
          tendency(v, k, i) = tendency_at<D>(v, k, i, forcing, flux, source, factors);
      });
}

}  // namespace

void apply_tendency_update(const Stream& stream, Direction direction, const StageFields& fields, VarRange vars,
                           const FluxContext<2>& context, const Bump<2>& wave_source) {
  with_direction(direction, [&](auto d) {
    launch_tendency_update<decltype(d)::value>(stream, fields, vars, context, wave_source);
  });
}

void compute_tendencies(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                        FieldView<const double, 2> flux, FieldView<double, 2> tendency, VarRange vars,
                        const FluxContext<2>& context, const Bump<2>& wave_source) {
  with_direction(direction, [&](auto d) {
    launch_tendencies<decltype(d)::value>(stream, forcing, flux, tendency, vars, context, wave_source);
  });
}

void apply_updates(const Stream& stream, FieldView<const double, 2> init, FieldView<const double, 2> tendency,
                   FieldView<double, 2> out, VarRange vars, const FluxContext<2>& context) {
  parallel_for(
      "apply_updates", stream, interior(out.shape), SIMAPP_LAMBDA(int i, int k) {
        const double dt_stage = context.stage_params().dt;
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, i) = stage_update(init(v, k, i), tendency(v, k, i), dt_stage);
      });
}

}  // namespace simapp
