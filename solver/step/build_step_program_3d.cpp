#include "solver/step/build_step_program_3d.hpp"

#include <string>

#include "kernels/diagnostics/health_check.hpp"
#include "kernels/stage/stage_kernel_3d.hpp"
#include "solver/step/halo_ops.hpp"
#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

std::string pass_name(Direction direction) {
  return direction == Direction::x ? "x" : direction == Direction::y ? "y" : "z";
}

/// The RK3 stages of one split pass, each reading and writing the arrays the scheme names.
void add_split_pass_3d(StepProgram& program, const StepResources3d& resources, const StepSchemeOf<3>& scheme,
                       Direction direction, int slot) {
  const StepFields3d& f = resources.fields;
  const FieldShape3d& shape = f.state.shape;
  const CellBox3d cells{0, shape.nx, 0, shape.ny, 0, shape.nz};
  const bool exchanged = exchanges_along(resources.sides, direction);
  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& rk = scheme.stages[s];
    const FieldView3d<double> input = stage_array(rk.input, f.state, f.stage1, f.stage2);
    if (exchanged)
      add_halo_ops(program, pass_name(direction) + ".stage" + std::to_string(s + 1) + ".", input,
                   resources.halos.along(direction), resources.halos.path);
    const StageArrays3d arrays = stage_arrays(f.state, input, stage_array(rk.output, f.state, f.stage1, f.stage2));
    const FluxContext3d context{resources.geometry, resources.background,
                                resources.params != nullptr ? resources.params->device_slot(slot) : nullptr, s};
    const Bump3d wave_source = resources.wave_source;
    const BoundaryConditions3d sides = resources.sides;
    program
        .add(OpKind::kernel, pass_name(direction) + ".stage" + std::to_string(s + 1) + ".stage",
             [direction, arrays, context, wave_source, sides, cells](const Stream& stream) {
               apply_stage_3d(stream, direction, arrays, context, wave_source, sides, cells);
             })
        .bytes = stage_kernel_3d_bytes(cells, arrays.init == arrays.forcing);
  }
}

/// The check of the state after a step, then its count and the copy to the host mirror.
void add_health_check_3d(StepProgram& program, const std::string& prefix, const StepResources3d& resources) {
  const FieldView3d<double> state = resources.fields.state;
  const HydrostaticView background = resources.background;
  const CellGeometry3d geometry = resources.geometry;
  const HealthCheckOps health = resources.health;
  program
      .add(OpKind::kernel, prefix + "check_health",
           [state, background, geometry, health](const Stream& stream) {
             check_health_3d(stream, state, background, geometry, health.record);
           })
      .bytes = health_check_3d_bytes(state.shape);
  program.add(OpKind::kernel, prefix + "count_health_check",
              [health](const Stream& stream) { count_health_check(stream, health.record, health.mirror); });
}

}  // namespace

bool exchanges_along(const BoundaryConditions3d& sides, Direction direction) {
  switch (direction) {
    case Direction::x: return sides.xz.x_low.from_neighbour() || sides.xz.x_high.from_neighbour();
    case Direction::y: return sides.y_low.from_neighbour() || sides.y_high.from_neighbour();
    case Direction::z: return sides.xz.z_low.from_neighbour() || sides.xz.z_high.from_neighbour();
  }
  return false;
}

StepProgram build_chunk_program_3d(const StepResources3d& resources, const ChunkLayout& layout) {
  StepProgram chunk;
  const StepParamsBlock3d* params = resources.params;
  const int steps = layout.steps;
  chunk.add(OpKind::transfer, "refresh_step_params",
            [params, steps](const Stream& stream) { params->enqueue_refresh(stream, steps); });
  add_chunk_steps(
      chunk, layout, [&](StepParity parity, int slot) { return build_step_program_3d(resources, parity, slot); },
      [&](const std::string& prefix, const StepProgram&) { add_health_check_3d(chunk, prefix, resources); });
  return chunk;
}

StepProgram build_loop_body_program_3d(const StepResources3d& resources, const ChunkLayout& layout,
                                       const LoopControl* loop) {
  StepProgram body;
  StepParams3d* slots = resources.params != nullptr ? resources.params->writable_device_slots() : nullptr;
  const int steps = layout.steps;
  body.add(OpKind::kernel, "advance_step_params", [loop, slots, steps](const Stream& stream) {
    advance_step_params_3d(stream, loop->clock, slots, steps, loop->schedule);
  });
  add_chunk_steps(
      body, layout, [&](StepParity parity, int slot) { return build_step_program_3d(resources, parity, slot); },
      [&](const std::string& prefix, const StepProgram&) { add_health_check_3d(body, prefix, resources); });
  const HealthRecord* health = resources.health.every > 0 ? resources.health.record : nullptr;
  body.add(OpKind::kernel, "count_loop_steps", [loop, steps, health](const Stream& stream) {
    count_loop_steps(stream, loop->clock, steps, health, loop->condition);
  });
  return body;
}

StepProgram build_step_program_3d(const StepResources3d& resources, StepParity parity, int slot) {
  constexpr StepSchemeOf<3> scheme = step_scheme_3d();
  StepProgram program;
  for (int p = 0; p < scheme.passes; ++p) add_split_pass_3d(program, resources, scheme, scheme.pass(parity, p), slot);
  return program;
}

}  // namespace simapp
