#include "kernels/update/tendency_update_3d.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/stage_tendency_3d.hpp"

namespace simapp {

namespace {

using V = ModelVariables<3>;

/// R(v) at cell (i, j, k) from the flux array.
template <Direction D>
SIMAPP_HOST_DEVICE inline double tendency_at(int v, int k, int j, int i, const FieldView<const double, 3>& forcing,
                                             const FieldView<const double, 3>& flux, double source,
                                             const StageFactors& factors) {
  const double high = D == Direction::x   ? flux(v, k, j, i + 1)
                      : D == Direction::y ? flux(v, k, j + 1, i)
                                          : flux(v, k + 1, j, i);
  const double density_perturbation = D == Direction::z && v == V::wmom ? forcing(V::dens, k, j, i) : 0.0;
  return stage_tendency<D, V>(v, flux(v, k, j, i), high, density_perturbation, source, factors);
}

template <Direction D>
void launch_tendency_update(const Stream& stream, const StageFields3d& fields, VarRange vars,
                            const FluxContext<3>& context, const Bump<3>& wave_source) {
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  parallel_for_cells(
      D == Direction::x   ? "apply_tendency_update_3d_x"
      : D == Direction::y ? "apply_tendency_update_3d_y"
                          : "apply_tendency_update_3d_z",
      stream, interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors factors = stage_factors_3d<D>(context);
        const double source = momentum_source_3d<D>(i, j, k, context, wave_source);
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) =
              stage_update(init(v, k, j, i), tendency_at<D>(v, k, j, i, forcing, flux, source, factors), factors.dt);
      });
}

template <Direction D>
void launch_tendencies(const Stream& stream, FieldView<const double, 3> forcing, FieldView<const double, 3> flux,
                       FieldView<double, 3> tendency, VarRange vars, const FluxContext<3>& context,
                       const Bump<3>& wave_source) {
  parallel_for_cells(
      D == Direction::x   ? "compute_tendencies_3d_x"
      : D == Direction::y ? "compute_tendencies_3d_y"
                          : "compute_tendencies_3d_z",
      stream, interior_cells(tendency.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const StageFactors factors = stage_factors_3d<D>(context);
        const double source = momentum_source_3d<D>(i, j, k, context, wave_source);
        for (int v = vars.first; v < vars.last; ++v)
          tendency(v, k, j, i) = tendency_at<D>(v, k, j, i, forcing, flux, source, factors);
      });
}

}  // namespace

void apply_tendency_update_3d(const Stream& stream, Direction direction, const StageFields3d& fields, VarRange vars,
                              const FluxContext<3>& context, const Bump<3>& wave_source) {
  with_direction_3d(direction, [&](auto d) {
    launch_tendency_update<decltype(d)::value>(stream, fields, vars, context, wave_source);
  });
}

void compute_tendencies_3d(const Stream& stream, Direction direction, FieldView<const double, 3> forcing,
                           FieldView<const double, 3> flux, FieldView<double, 3> tendency, VarRange vars,
                           const FluxContext<3>& context, const Bump<3>& wave_source) {
  with_direction_3d(direction, [&](auto d) {
    launch_tendencies<decltype(d)::value>(stream, forcing, flux, tendency, vars, context, wave_source);
  });
}

void apply_updates_3d(const Stream& stream, FieldView<const double, 3> init, FieldView<const double, 3> tendency,
                      FieldView<double, 3> out, VarRange vars, const FluxContext<3>& context) {
  parallel_for_cells(
      "apply_updates_3d", stream, interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        const double dt_stage = context.params->stage[context.stage].dt;
        for (int v = vars.first; v < vars.last; ++v)
          out(v, k, j, i) = stage_update(init(v, k, j, i), tendency(v, k, j, i), dt_stage);
      });
}

}  // namespace simapp
