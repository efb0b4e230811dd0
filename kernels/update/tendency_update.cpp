#include "kernels/update/tendency_update.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

void apply_tendency_update(const Stream& stream, Direction direction, const StageFields& fields,
                           VarRange vars, const FluxContext& context, const Bump& wave_source) {
  const IndexBox interior{0, fields.out.shape.nx, 0, fields.out.shape.nz};
  const auto init = fields.init;
  const auto forcing = fields.forcing;
  const auto flux = fields.flux;
  const auto out = fields.out;
  const CellGeometry geometry = context.geometry;
  const HydrostaticView background = context.background;
  const StepParams* params = context.params;
  const double stage_divisor = context.stage_divisor;
  const bool x_pass = direction == Direction::x;

  parallel_for(x_pass ? "apply_tendency_update_x" : "apply_tendency_update_z", stream, interior,
               SIMAPP_LAMBDA(int i, int k) {
    const double dt_stage = params->dt / stage_divisor;
    for (int v = vars.first; v < vars.last; ++v) {
      double tendency = x_pass ? -(flux(v, k, i + 1) - flux(v, k, i)) / geometry.dx
                               : -(flux(v, k + 1, i) - flux(v, k, i)) / geometry.dz;
      if (v == var::wmom) {
        if (!x_pass) tendency -= forcing(var::dens, k, i) * physics::gravity;
        if (wave_source.amplitude != 0.0)
          tendency += wave_source(geometry.x_center(i), geometry.z_center(k)) * background.cell_density(k);
      }
      out(v, k, i) = init(v, k, i) + dt_stage * tendency;
    }
  });
}

}  // namespace simapp
