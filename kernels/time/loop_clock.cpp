#include "kernels/time/loop_clock.hpp"

#include "kernels/backend/parallel_for.hpp"

namespace simapp {

namespace {

constexpr IndexBox one_thread{0, 1, 0, 1};

}  // namespace

void set_loop_clock(const Stream& stream, LoopClock* clock, std::int64_t steps) {
  parallel_for(
      "set_loop_clock", stream, one_thread, SIMAPP_LAMBDA(int, int) {
        *clock = LoopClock{steps, steps};
      });
}

void set_loop_target(const Stream& stream, LoopClock* clock, std::int64_t steps) {
  parallel_for(
      "set_loop_target", stream, one_thread, SIMAPP_LAMBDA(int, int) { clock->target = clock->completed + steps; });
}

void add_completed_steps(const Stream& stream, LoopClock* clock, int steps) {
  parallel_for(
      "add_completed_steps", stream, one_thread, SIMAPP_LAMBDA(int, int) { clock->completed += steps; });
}

namespace {

/// The step values of a step of `dt` in the schedule's cells (2-D: dx, dz; 3-D: dx, dy, dz).
template <int Dims>
SIMAPP_HOST_DEVICE inline StepParams<Dims> scheduled_step_params(const TimeSchedule& schedule, double dt) {
  if constexpr (Dims == 3)
    return step_params(dt, schedule.dx, schedule.dy, schedule.dz, schedule.dissipation);
  else
    return step_params(dt, schedule.dx, schedule.dz, schedule.dissipation);
}

}  // namespace

template <int Dims>
void advance_step_params(const Stream& stream, const LoopClock* clock, StepParams<Dims>* slots, int count,
                         const TimeSchedule& schedule) {
  parallel_for(
      "advance_step_params", stream, IndexBox{0, count, 0, 1}, SIMAPP_LAMBDA(int j, int) {
        const std::int64_t step = clock->completed + 1 + j;
        slots[j] = scheduled_step_params<Dims>(schedule, schedule.dt_of(step));
        slots[j].dt_physics = physics_time_step(schedule, step);
      });
}

template void advance_step_params<2>(const Stream&, const LoopClock*, StepParams<2>*, int, const TimeSchedule&);
template void advance_step_params<3>(const Stream&, const LoopClock*, StepParams<3>*, int, const TimeSchedule&);

void count_loop_steps(const Stream& stream, LoopClock* clock, int steps, const HealthRecord* health,
                      std::uint64_t condition) {
  parallel_for(
      "count_loop_steps", stream, one_thread, SIMAPP_LAMBDA(int, int) {
        clock->completed += steps;
        const bool go_on = clock->completed < clock->target && (health == nullptr || health->failed_check < 0);
#if defined(__CUDA_ARCH__)
        cudaGraphSetConditional(static_cast<cudaGraphConditionalHandle>(condition), go_on ? 1u : 0u);
#else
    (void)go_on;
    (void)condition;
#endif
      });
}

}  // namespace simapp
