#include "solver/model/model_3d.hpp"

#include "kernels/boundary/boundary_conditions_3d.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/executor/executor_factory.hpp"

namespace simapp {

namespace {

FieldView3d<double> view_of(const DeviceBuffer<double>& buffer, const FieldShape3d& shape) {
  return {buffer.data(), shape};
}

}  // namespace

Model3d::Model3d(const ModelContext& context)
    : spec_(context.spec),
      geometry_(context.grid.geometry_3d()),
      background_(context.background),
      state_(context.stream.backend, context.grid.cell_shape_3d().size()),
      stage1_(context.stream.backend, context.grid.cell_shape_3d().size()),
      stage2_(context.stream.backend, context.grid.cell_shape_3d().size()),
      params_(context.stream, step_params_slots(context.mode, context.spec.execution)),
      resources_{{view_of(state_, context.grid.cell_shape_3d()), view_of(stage1_, context.grid.cell_shape_3d()),
                  view_of(stage2_, context.grid.cell_shape_3d())},
                 geometry_,
                 context.background,
                 &params_,
                 gravity_wave_source(context.spec.case_name, configured_bump_3d(context.spec)),
                 periodic_in_y(case_boundaries(context.spec.case_name)),
                 context.health},
      first_step_(build_step_program_3d(resources_, StepParity::odd, 0)),
      chunks_(resources_, params_, context.time, geometry_, context.spec.physics, context.spec.execution.check_every),
      reducer_(context.stream.backend, context.grid.nz(), context.decomposition.comm()),
      interior_(interior_layout(context.grid.cell_shape_3d())) {}

std::size_t Model3d::memory_needed(const Grid& grid) { return 3 * grid.cell_shape_3d().size() * sizeof(double); }

void Model3d::set_initial_state(const Stream& stream) const {
  set_initial_state_3d(stream, resources_.fields.state, spec_.case_name, configured_bump_3d(spec_), geometry_);
}

Diagnostics Model3d::diagnostics(const Stream& stream) const {
  return reducer_.compute(stream, resources_.fields.state, background_, geometry_);
}

}  // namespace simapp
