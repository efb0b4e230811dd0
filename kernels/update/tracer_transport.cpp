#include "kernels/update/tracer_transport.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

namespace {

template <Direction D, int Dims>
void transport_along(const Stream& stream, const TracerStageFields<Dims>& fields, VarRange tracers,
                     const FluxContext<Dims>& context, const TracerBackground& background) {
  using V = ModelVariables<Dims>;
  constexpr int normal = normal_momentum<D, Dims>();
  constexpr int di = D == Direction::x ? 1 : 0, dj = D == Direction::y ? 1 : 0, dk = D == Direction::z ? 1 : 0;
  const FieldView<const double, Dims> forcing = fields.forcing, init = fields.init;
  const FieldView<double, Dims> out = fields.out;
  parallel_for_cells<Dims>(
      direction_label<D>("tracer_transport_x", "tracer_transport_y", "tracer_transport_z"), stream,
      interior_cells(out.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        // The five cells c − 2 .. c + 2 along the pass: the low face's stencil is 0..3, the high face's 1..4.
        const auto along = [&](int v, double(&q)[5]) {
          for (int o = 0; o < 5; ++o) q[o] = forcing(v, k + dk * (o - 2), j + dj * (o - 2), i + di * (o - 2));
        };
        double density[5], momentum[5];
        along(V::dens, density);
        along(normal, momentum);
        const int face_low = k, face_high = k + dk;  // z: interfaces k, k + 1; x, y: row k's
        const double density_low = face_value(density[0], density[1], density[2], density[3]);
        const double density_high = face_value(density[1], density[2], density[3], density[4]);
        const double u_low = face_velocity<D>(
            density_low, face_value(momentum[0], momentum[1], momentum[2], momentum[3]), face_low, context);
        const double u_high = face_velocity<D>(
            density_high, face_value(momentum[1], momentum[2], momentum[3], momentum[4]), face_high, context);
        const StageFactors factors = stage_factors<D>(context);
        // Diffusion: the faces' factors κ ρ_f / Δ; 1/ρ of the cells c − 1, c, c + 1 (z: rows k − 1, k, k + 1).
        const bool diffuse = diffusivity_over_spacing<D>(context) != 0.0;
        double factor_low = 0.0, factor_high = 0.0, inv_density[3] = {};
        if (diffuse) {
          factor_low = tracer_diffusion_factor<D>(density_low, face_low, context);
          factor_high = tracer_diffusion_factor<D>(density_high, face_high, context);
          for (int o = 0; o < 3; ++o)
            inv_density[o] = 1.0 / (density[o + 1] + context.background.cell_density(k + dk * (o - 1)));
        }
        for (int t = tracers.first; t < tracers.last; ++t) {
          const int b = t - tracers.first;
          double q[5];
          along(t, q);
          const double low[4] = {q[0], q[1], q[2], q[3]}, high[4] = {q[1], q[2], q[3], q[4]};
          const double background_low = dk ? background.face_value(b, face_low) : background.cell_value(b, k);
          const double background_high = dk ? background.face_value(b, face_high) : background_low;
          double flux_low = tracer_face_flux<D>(u_low, low, background_low, face_low, context);
          double flux_high = tracer_face_flux<D>(u_high, high, background_high, face_high, context);
          if (diffuse) {
            const auto cell = [&](int o) {
              return TracerInCell{q[o + 1], background.cell_value(b, k + dk * (o - 1)), inv_density[o]};
            };
            flux_low += tracer_diffusive_flux(factor_low, cell(0), cell(1));
            flux_high += tracer_diffusive_flux(factor_high, cell(1), cell(2));
          }
          out(t, k, j, i) = stage_update(init(t, k, j, i), -(flux_high - flux_low) * factors.inv_spacing, factors.dt);
        }
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
