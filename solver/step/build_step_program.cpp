#include "solver/step/build_step_program.hpp"

#include <string>

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/update/tendency_update.hpp"

namespace simapp {

namespace {

constexpr VarRange all_vars{0, var::count};

/// Adds the three RK3 stages of one split pass.
void add_split_pass(StepProgram& program, const StepResources& resources, Direction direction) {
  const Workspace& workspace = *resources.workspace;
  const FieldView<double> stage_input[3] = {workspace.state(), workspace.stage1(), workspace.stage2()};
  const FieldView<double> stage_output[3] = {workspace.stage1(), workspace.stage2(), workspace.state()};
  constexpr double stage_divisor[3] = {3.0, 2.0, 1.0};
  const FieldView<double> flux = workspace.flux();
  const Bump wave_source = gravity_wave_source(resources.case_name, resources.geometry.xlen);
  const bool injection = resources.case_name == CaseName::injection;
  const std::string pass = direction == Direction::x ? "x" : "z";

  for (int s = 0; s < 3; ++s) {
    const std::string prefix = pass + ".stage" + std::to_string(s + 1) + ".";
    const FieldView<double> forcing = stage_input[s];
    const FluxContext context{resources.geometry, resources.background, resources.params, stage_divisor[s]};
    const StageFields fields{workspace.state(), forcing, flux, stage_output[s]};

    if (direction == Direction::x) {
      program.add_kernel(prefix + "fill_halos", [=](const Stream& stream) {
        fill_periodic_x_halos(stream, forcing, all_vars);
      });
      if (injection)
        program.add_kernel(prefix + "inflow", [=](const Stream& stream) {
          apply_injection_inflow(stream, forcing, context.background, context.geometry);
        });
    } else {
      program.add_kernel(prefix + "fill_halos", [=](const Stream& stream) {
        fill_wall_z_halos(stream, forcing, all_vars, context.background);
      });
    }
    program.add_kernel(prefix + "fluxes", [=](const Stream& stream) {
      compute_fluxes(stream, direction, forcing, flux, all_vars, context);
    });
    program.add_kernel(prefix + "update", [=](const Stream& stream) {
      apply_tendency_update(stream, direction, fields, all_vars, context, wave_source);
    });
  }
}

}  // namespace

StepProgram build_step_program(const StepResources& resources, StepParity parity) {
  StepProgram program;
  const bool x_first = parity == StepParity::odd;
  add_split_pass(program, resources, x_first ? Direction::x : Direction::z);
  add_split_pass(program, resources, x_first ? Direction::z : Direction::x);
  return program;
}

}  // namespace simapp
