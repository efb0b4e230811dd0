#include "solver/executor/chunk_programs.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "solver/step/step_elements.hpp"

namespace simapp {

namespace {

/// Writes into the slots of `params` the values of the `steps` steps after `completed` for cells of `geometry`.
/// With the microphysics every `physics_every` steps (0: none), the time each of its runs integrates over.
template <int Dims>
void write_chunk_values(StepParamsBlock<Dims>& params, const TimeStepping& time, const CellGeometry<Dims>& geometry,
                        const Dissipation& physics, int physics_every, long completed, int steps) {
  TimeSchedule schedule;
  schedule.dt = time.dt();
  schedule.num_steps = time.num_steps();
  schedule.dt_last = time.dt_of(time.num_steps());
  schedule.physics_every = physics_every;
  std::vector<StepParams<Dims>> values(static_cast<std::size_t>(steps));
  for (int j = 0; j < steps; ++j) {
    const double dt = time.dt_of(completed + 1 + j);
    if constexpr (Dims == 3)
      values[j] = step_params(dt, geometry.dx, geometry.dy, geometry.dz, physics);
    else
      values[j] = step_params(dt, geometry.dx, geometry.dz, physics);
    values[j].dt_physics = physics_time_step(schedule, completed + 1 + j);
  }
  params.write_slots(values);
}

/// The persistent kernel's arguments (PersistentSteps<Dims, Real>) from the step resources, the
/// tracers' backgrounds and the microphysics (every = 0 without water) included; the domain's
/// sides are the rank's (it runs on one rank).
template <int Dims, class Real>
PersistentArguments persistent_steps(const StepResources<Dims, Real>& resources, const TimeSchedule& schedule,
                                     LoopClock* clock) {
  using Steps = PersistentSteps<Dims, Real>;
  const HealthCheckOps& health = resources.health;
  return Steps{resources.fields.state,
               resources.fields.stage1,
               resources.fields.stage2,
               resources.geometry,
               resources.background,
               resources.sources,
               resources.halo.domain,
               schedule,
               resources.params->writable_device_slots(),
               clock,
               health.every,
               health.record,
               health.mirror,
               resources.tracers,
               resources.microphysics};
}

}  // namespace

template <int Dims, class Real>
ChunkPrograms::ChunkPrograms(const StepResources<Dims, Real>& resources, StepParamsBlock<Dims>& params,
                             const TimeStepping& time, const Dissipation& physics)
    : build_([&resources](const ChunkLayout& layout) { return build_chunk_program(resources, layout); }),
      write_values_([&params, &time, geometry = resources.geometry, physics,
                     physics_every = resources.microphysics.every](long completed, int steps) {
        write_chunk_values(params, time, geometry, physics, physics_every, completed, steps);
      }),
      loop_body_([&resources](const ChunkLayout& layout, const LoopControl* loop) {
        return build_loop_body_program(resources, layout, loop);
      }),
      persistent_([&resources](const TimeSchedule& schedule, LoopClock* clock) {
        return persistent_steps(resources, schedule, clock);
      }),
      time_(time),
      cadences_(element_cadences(resources)) {}

template ChunkPrograms::ChunkPrograms(const StepResources<2, double>&, StepParamsBlock<2>&, const TimeStepping&,
                                      const Dissipation&);
template ChunkPrograms::ChunkPrograms(const StepResources<3, double>&, StepParamsBlock<3>&, const TimeStepping&,
                                      const Dissipation&);
template ChunkPrograms::ChunkPrograms(const StepResources<2, float>&, StepParamsBlock<2>&, const TimeStepping&,
                                      const Dissipation&);
template ChunkPrograms::ChunkPrograms(const StepResources<3, float>&, StepParamsBlock<3>&, const TimeStepping&,
                                      const Dissipation&);

ChunkLayout ChunkPrograms::layout_after(long completed, int steps) const {
  return chunk_layout(completed, steps, time_.num_steps(), cadences_);
}

const StepProgram& ChunkPrograms::program(const ChunkLayout& layout) {
  auto found = programs_.find(layout);
  if (found == programs_.end()) found = programs_.emplace(layout, build_(layout)).first;
  return found->second;
}

const StepProgram& ChunkPrograms::ready_program(long completed, int steps) {
  write_step_values(completed, steps);
  return program_after(completed, steps);
}

long steps_to_next_end(long completed, const ChunkEnds& chunk_ends, long num_steps) {
  const long next_end = chunk_ends ? chunk_ends(completed) : -1;
  return (next_end < 0 ? num_steps : std::min(next_end, num_steps)) - completed;
}

}  // namespace simapp
