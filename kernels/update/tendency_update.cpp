#include "kernels/update/tendency_update.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {
namespace {

/// R(v) at cell (i, j, k) from the flux array.
template <Direction D, class Real, int Dims>
SIMAPP_HOST_DEVICE inline Real tendency_at(int v, int k, int j, int i, const FieldView<const Real, Dims>& forcing,
                                           const FieldView<const Real, Dims>& flux, Real source,
                                           const StageFactors<Real>& factors) {
  using V = ModelVariables<Dims>;
  const Real high = D == Direction::x   ? flux(v, k, j, i + 1)
                    : D == Direction::y ? flux(v, k, j + 1, i)
                                        : flux(v, k + 1, j, i);
  const Real density_perturbation = D == Direction::z && v == V::wmom ? forcing(V::dens, k, j, i) : Real(0);
  return stage_tendency<D, V>(v, flux(v, k, j, i), high, density_perturbation, source, factors);
}

template <Direction D, class Real, int Dims>
void launch_tendency_update(const Stream& stream, const StageFields<Real, Dims>& fields, VarRange vars,
                            const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  parallel_for_cells<Dims>(
      direction_label<D>("apply_tendency_update_x", "apply_tendency_update_y", "apply_tendency_update_z"), stream,
      interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors<Real> factors = stage_factors<D, Real>(context);
        const Real source = Real(momentum_source<D>(i, j, k, context, sources));
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) =
              stage_update(init(v, k, j, i), tendency_at<D>(v, k, j, i, forcing, flux, source, factors), factors.dt);
      });
}

template <Direction D, class Real, int Dims>
void launch_tendencies(const Stream& stream, FieldView<const Real, Dims> forcing, FieldView<const Real, Dims> flux,
                       FieldView<Real, Dims> tendency, VarRange vars, const FluxContext<Dims>& context,
                       const SourceTerms<Dims>& sources) {
  parallel_for_cells<Dims>(
      direction_label<D>("compute_tendencies_x", "compute_tendencies_y", "compute_tendencies_z"), stream,
      interior_cells(tendency.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors<Real> factors = stage_factors<D, Real>(context);
        const Real source = Real(momentum_source<D>(i, j, k, context, sources));
        for (int v = vars.first; v < vars.last; ++v)
          tendency(v, k, j, i) = tendency_at<D>(v, k, j, i, forcing, flux, source, factors);
      });
}

}  // namespace

template <class Real, int Dims>
void apply_tendency_update(const Stream& stream, Direction direction, const StageFields<Real, Dims>& fields,
                           VarRange vars, const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  with_direction_of<Dims>(
      direction, [&](auto d) { launch_tendency_update<decltype(d)::value>(stream, fields, vars, context, sources); });
}

template <class Real, int Dims>
void compute_tendencies(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                        FieldOf<const Real, Dims> flux, FieldView<Real, Dims> tendency, VarRange vars,
                        const FluxContext<Dims>& context, const SourceTerms<Dims>& sources) {
  with_direction_of<Dims>(direction, [&](auto d) {
    launch_tendencies<decltype(d)::value>(stream, forcing, flux, tendency, vars, context, sources);
  });
}

template <class Real, int Dims>
void apply_updates(const Stream& stream, FieldOf<const Real, Dims> init, FieldOf<const Real, Dims> tendency,
                   FieldView<Real, Dims> out, VarRange vars, const FluxContext<Dims>& context) {
  parallel_for_cells<Dims>(
      "apply_updates", stream, interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const Real dt_stage = Real(context.stage_params().dt);
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) = stage_update(init(v, k, j, i), tendency(v, k, j, i), dt_stage);
      });
}

#define SIMAPP_TENDENCY_UPDATE_OF(Real, Dims)                                                                         \
  template void apply_tendency_update<Real, Dims>(const Stream&, Direction, const StageFields<Real, Dims>&, VarRange, \
                                                  const FluxContext<Dims>&, const SourceTerms<Dims>&);                \
  template void compute_tendencies<Real, Dims>(const Stream&, Direction, FieldOf<const Real, Dims>,                   \
                                               FieldOf<const Real, Dims>, FieldView<Real, Dims>, VarRange,            \
                                               const FluxContext<Dims>&, const SourceTerms<Dims>&);                   \
  template void apply_updates<Real, Dims>(const Stream&, FieldOf<const Real, Dims>, FieldOf<const Real, Dims>,        \
                                          FieldView<Real, Dims>, VarRange, const FluxContext<Dims>&);
SIMAPP_TENDENCY_UPDATE_OF(double, 2)
SIMAPP_TENDENCY_UPDATE_OF(double, 3)
SIMAPP_TENDENCY_UPDATE_OF(float, 2)
SIMAPP_TENDENCY_UPDATE_OF(float, 3)
#undef SIMAPP_TENDENCY_UPDATE_OF

}  // namespace simapp
