#pragma once
/// One Runge–Kutta stage of the tracers' transport along a split pass at one interior cell
/// (tracer_transport.hpp, docs/model.md, "Tracers"): for each tracer, the fluxes at the cell's two
/// faces along the pass (tracer_flux.hpp: advection with the dry flux's face velocity,
/// hyperviscosity and, with physics.diffusivity, diffusion), then
///   out = init + dt_stage · (−(F_high − F_low) / Δ).
/// The work of the tracer transport kernel and of the persistent kernel's stages (a barrier a
/// stage), which reads the stage's input where the ghost cells are made by rule instead of
/// filled: `forcing(v, k, j, i)` gives the stage's input at any cell the stencil reaches.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// out(t) = init(t) + dt_stage · R(t) at interior cell (i, j, k) for the tracers t ∈ tracers,
/// tracer t's background profile background's t − tracers.first; the stage's input from
/// `forcing(v, k, j, i)` (the two cells either side along the pass included).
template <Direction D, class Real, int Dims, class Forcing>
SIMAPP_HOST_DEVICE inline void transport_tracers_at(const Forcing& forcing, const FieldView<const Real, Dims>& init,
                                                    const FieldView<Real, Dims>& out, VarRange tracers,
                                                    const FluxContext<Dims>& context,
                                                    const TracerBackground& background, int i, int j, int k) {
  using V = ModelVariables<Dims>;
  constexpr int normal = normal_momentum<D, Dims>();
  constexpr int di = D == Direction::x ? 1 : 0, dj = D == Direction::y ? 1 : 0, dk = D == Direction::z ? 1 : 0;
  // The five cells c − 2 .. c + 2 along the pass: the low face's stencil is 0..3, the high face's 1..4.
  const auto along = [&](int v, Real(&q)[5]) {
    for (int o = 0; o < 5; ++o) q[o] = forcing(v, k + dk * (o - 2), j + dj * (o - 2), i + di * (o - 2));
  };
  Real density[5], momentum[5];
  along(V::dens, density);
  along(normal, momentum);
  const int face_low = k, face_high = k + dk;  // z: interfaces k, k + 1; x, y: row k's
  const Real density_low = face_value(density[0], density[1], density[2], density[3]);
  const Real density_high = face_value(density[1], density[2], density[3], density[4]);
  const Real u_low =
      face_velocity<D>(density_low, face_value(momentum[0], momentum[1], momentum[2], momentum[3]), face_low, context);
  const Real u_high = face_velocity<D>(density_high, face_value(momentum[1], momentum[2], momentum[3], momentum[4]),
                                       face_high, context);
  const StageFactors<Real> factors = stage_factors<D, Real>(context);
  // Diffusion: the faces' factors κ ρ_f / Δ; 1/ρ of the cells c − 1, c, c + 1 (z: rows k − 1, k, k + 1).
  const bool diffuse = diffusivity_over_spacing<D>(context) != 0.0;
  Real factor_low = 0, factor_high = 0, inv_density[3] = {};
  if (diffuse) {
    factor_low = tracer_diffusion_factor<D>(density_low, face_low, context);
    factor_high = tracer_diffusion_factor<D>(density_high, face_high, context);
    for (int o = 0; o < 3; ++o)
      inv_density[o] = Real(1) / (density[o + 1] + Real(context.background.cell_density(k + dk * (o - 1))));
  }
  for (int t = tracers.first; t < tracers.last; ++t) {
    const int b = t - tracers.first;
    Real q[5];
    along(t, q);
    const Real low[4] = {q[0], q[1], q[2], q[3]}, high[4] = {q[1], q[2], q[3], q[4]};
    const double background_low = dk ? background.face_value(b, face_low) : background.cell_value(b, k);
    const double background_high = dk ? background.face_value(b, face_high) : background_low;
    Real flux_low = tracer_face_flux<D>(u_low, low, background_low, face_low, context);
    Real flux_high = tracer_face_flux<D>(u_high, high, background_high, face_high, context);
    if (diffuse) {
      const auto cell = [&](int o) {
        const int row = k + dk * (o - 1);
        return TracerInCell<Real>{q[o + 1], background.cell_value(b, row), inv_density[o],
                                  context.background.cell_density(row)};
      };
      flux_low += tracer_diffusive_flux(factor_low, cell(0), cell(1));
      flux_high += tracer_diffusive_flux(factor_high, cell(1), cell(2));
    }
    out(t, k, j, i) = stage_update(init(t, k, j, i), -(flux_high - flux_low) * factors.inv_spacing, factors.dt);
  }
}

}  // namespace simapp
