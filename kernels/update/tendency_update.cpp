#include "kernels/update/tendency_update.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {
namespace {

/// R(v) at cell (i, j, k) from the flux array.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double tendency_at(int v, int k, int j, int i, const FieldView<const double, Dims>& forcing,
                                             const FieldView<const double, Dims>& flux, double source,
                                             const StageFactors& factors) {
  using V = ModelVariables<Dims>;
  const double high = D == Direction::x   ? flux(v, k, j, i + 1)
                      : D == Direction::y ? flux(v, k, j + 1, i)
                                          : flux(v, k + 1, j, i);
  const double density_perturbation = D == Direction::z && v == V::wmom ? forcing(V::dens, k, j, i) : 0.0;
  return stage_tendency<D, V>(v, flux(v, k, j, i), high, density_perturbation, source, factors);
}

template <Direction D, int Dims>
void launch_tendency_update(const Stream& stream, const StageFields<Dims>& fields, VarRange vars,
                            const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  parallel_for_cells<Dims>(
      direction_label<D>("apply_tendency_update_x", "apply_tendency_update_y", "apply_tendency_update_z"), stream,
      interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors factors = stage_factors<D>(context);
        const double source = momentum_source<D>(i, j, k, context, sources);
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) =
              stage_update(init(v, k, j, i), tendency_at<D>(v, k, j, i, forcing, flux, source, factors), factors.dt);
      });
}

template <Direction D, int Dims>
void launch_tendencies(const Stream& stream, FieldView<const double, Dims> forcing, FieldView<const double, Dims> flux,
                       FieldView<double, Dims> tendency, VarRange vars, const FluxContext<Dims>& context,
                       const SourceTerms<Dims>& sources) {
  parallel_for_cells<Dims>(
      direction_label<D>("compute_tendencies_x", "compute_tendencies_y", "compute_tendencies_z"), stream,
      interior_cells(tendency.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors factors = stage_factors<D>(context);
        const double source = momentum_source<D>(i, j, k, context, sources);
        for (int v = vars.first; v < vars.last; ++v)
          tendency(v, k, j, i) = tendency_at<D>(v, k, j, i, forcing, flux, source, factors);
      });
}

}  // namespace

template <int Dims>
void apply_tendency_update(const Stream& stream, Direction direction, const StageFields<Dims>& fields, VarRange vars,
                           const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  with_direction_of<Dims>(
      direction, [&](auto d) { launch_tendency_update<decltype(d)::value>(stream, fields, vars, context, sources); });
}

template <int Dims>
void compute_tendencies(const Stream& stream, Direction direction, FieldOf<const double, Dims> forcing,
                        FieldOf<const double, Dims> flux, FieldOf<double, Dims> tendency, VarRange vars,
                        const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  with_direction_of<Dims>(direction, [&](auto d) {
    launch_tendencies<decltype(d)::value>(stream, forcing, flux, tendency, vars, context, sources);
  });
}

template <int Dims>
void apply_updates(const Stream& stream, FieldOf<const double, Dims> init, FieldOf<const double, Dims> tendency,
                   FieldOf<double, Dims> out, VarRange vars, const FluxContext<Dims>& context) {
  parallel_for_cells<Dims>(
      "apply_updates", stream, interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const double dt_stage = context.stage_params().dt;
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) = stage_update(init(v, k, j, i), tendency(v, k, j, i), dt_stage);
      });
}

#define SIMAPP_TENDENCY_UPDATE_OF(Dims)                                                                      \
  template void apply_tendency_update<Dims>(const Stream&, Direction, const StageFields<Dims>&, VarRange,    \
                                            const FluxContext<Dims>&, const SourceTerms<Dims>&);             \
  template void compute_tendencies<Dims>(const Stream&, Direction, FieldOf<const double, Dims>,              \
                                         FieldOf<const double, Dims>, FieldOf<double, Dims>, VarRange,       \
                                         const FluxContext<Dims>&, const SourceTerms<Dims>&);                \
  template void apply_updates<Dims>(const Stream&, FieldOf<const double, Dims>, FieldOf<const double, Dims>, \
                                    FieldOf<double, Dims>, VarRange, const FluxContext<Dims>&);
SIMAPP_TENDENCY_UPDATE_OF(2)
SIMAPP_TENDENCY_UPDATE_OF(3)
#undef SIMAPP_TENDENCY_UPDATE_OF

}  // namespace simapp
