#include "solver/executor/chunk_programs.hpp"

#include <algorithm>

#include "foundation/error.hpp"

namespace simapp {

namespace {

/// Stages into `params` the values of the `steps` steps after `completed`, each made by
/// `values_of(dt)`.
template <class Params, class ValuesOf>
void stage_steps(StepParamsBlockOf<Params>& params, const TimeStepping& time, long completed, int steps,
                 const ValuesOf& values_of) {
  std::vector<Params> values(static_cast<std::size_t>(steps));
  for (int j = 0; j < steps; ++j) values[j] = values_of(time.dt_of(completed + 1 + j));
  params.stage(values);
}

/// The persistent kernel's arguments (PersistentSteps<2> or PersistentSteps<3>) from either model's
/// step resources; `domain`: the domain's sides (one rank: its sides are the domain's).
template <class Steps, class Resources, class Sides>
Steps persistent_steps(const Resources& resources, const Sides& domain, const TimeSchedule& schedule,
                       LoopClock* clock) {
  const HealthCheckOps& health = resources.health;
  return Steps{resources.fields.state,
               resources.fields.stage1,
               resources.fields.stage2,
               resources.geometry,
               resources.background,
               resources.wave_source,
               domain,
               schedule,
               resources.params->writable_device_slots(),
               clock,
               health.every,
               health.record,
               health.mirror};
}

}  // namespace

ChunkPrograms::ChunkPrograms(const StepResources& resources, StepParamsBlock& params, const TimeStepping& time,
                             double dx, double dz, const Dissipation& physics, int check_every)
    : build_([&resources](const ChunkLayout& layout) { return build_chunk_program(resources, layout); }),
      stage_([&params, &time, dx, dz, physics](long completed, int steps) {
        stage_steps(params, time, completed, steps, [&](double dt) { return step_params(dt, dx, dz, physics); });
      }),
      loop_body_([&resources](const ChunkLayout& layout, const LoopControl* loop) {
        return build_loop_body_program(resources, layout, loop);
      }),
      persistent_([&resources](const TimeSchedule& schedule, LoopClock* clock) -> PersistentArguments {
        return persistent_steps<PersistentSteps<2>>(resources, resources.halo.domain, schedule, clock);
      }),
      time_(time),
      check_every_(check_every) {}

ChunkPrograms::ChunkPrograms(const StepResources3d& resources, StepParamsBlock3d& params, const TimeStepping& time,
                             const CellGeometry<3>& geometry, const Dissipation& physics, int check_every)
    : build_([&resources](const ChunkLayout& layout) { return build_chunk_program_3d(resources, layout); }),
      stage_([&params, &time, geometry, physics](long completed, int steps) {
        stage_steps(params, time, completed, steps,
                    [&](double dt) { return step_params(dt, geometry.dx, geometry.dy, geometry.dz, physics); });
      }),
      loop_body_([&resources](const ChunkLayout& layout, const LoopControl* loop) {
        return build_loop_body_program_3d(resources, layout, loop);
      }),
      persistent_([&resources](const TimeSchedule& schedule, LoopClock* clock) -> PersistentArguments {
        return persistent_steps<PersistentSteps<3>>(resources, resources.domain, schedule, clock);
      }),
      time_(time),
      check_every_(check_every) {}

ChunkLayout ChunkPrograms::layout_after(long completed, int steps) const {
  return chunk_layout(completed, steps, time_.num_steps(), check_every_);
}

const StepProgram& ChunkPrograms::program(const ChunkLayout& layout) {
  auto found = programs_.find(layout);
  if (found == programs_.end()) found = programs_.emplace(layout, build_(layout)).first;
  return found->second;
}

const StepProgram& ChunkPrograms::staged(long completed, int steps) {
  stage_params(completed, steps);
  return program_after(completed, steps);
}

long steps_to_next_end(long completed, const ChunkEnds& chunk_ends, long num_steps) {
  const long next_end = chunk_ends ? chunk_ends(completed) : -1;
  return (next_end < 0 ? num_steps : std::min(next_end, num_steps)) - completed;
}

}  // namespace simapp
