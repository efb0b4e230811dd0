#pragma once
/// The device side of execution.mode graph_loop: a step counter in device memory, the time
/// step schedule computed from it, and the kernel that ends each pass of the loop's body by
/// counting its steps and setting the WHILE node's condition. Between two host events the
/// host only says how many steps to run; everything a step needs comes from the device.
#include <cstdint>

#include "kernels/backend/stream.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/time/cadence.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// Steps completed, and the count the running loop ends at.
struct LoopClock {
  std::int64_t completed = 0;
  std::int64_t target = 0;
};

/// dt of step n (1-based): dt, except dt_last for the run's last step (TimeStepping::dt_of).
struct TimeSchedule {
  double dt = 0.0;
  double dt_last = 0.0;
  std::int64_t num_steps = 0;
  double dx = 0.0;
  double dz = 0.0;
  Dissipation dissipation;
  double dy = 0.0;        ///< the 3-D model's
  int physics_every = 0;  ///< the microphysics' cadence (physics.microphysics_every); 0: none

  SIMAPP_HOST_DEVICE double dt_of(std::int64_t step) const { return step == num_steps ? dt_last : dt; }
};

/// StepParams::dt_physics of step n (1-based): where the microphysics follows it, the dts of the
/// steps since its last run, after step ⌊(n − 1)/every⌋·every, added one by one in double; else 0.
SIMAPP_HOST_DEVICE inline double physics_time_step(const TimeSchedule& schedule, std::int64_t n) {
  if (!element_follows(schedule.physics_every, n, schedule.num_steps)) return 0.0;
  double dt = 0.0;
  for (std::int64_t step = (n - 1) / schedule.physics_every * schedule.physics_every + 1; step <= n; ++step)
    dt += schedule.dt_of(step);
  return dt;
}

/// completed = target = steps.
void set_loop_clock(const Stream& stream, LoopClock* clock, std::int64_t steps);

/// target = completed + steps: the loop launched next runs `steps` steps.
void set_loop_target(const Stream& stream, LoopClock* clock, std::int64_t steps);

/// completed += steps (steps run outside the loop).
void add_completed_steps(const Stream& stream, LoopClock* clock, int steps);

/// slots[j] = step_params(dt_of(n), dx, (dy,) dz, dissipation) with step n = completed + 1 + j for
/// j < count: the StepParams of the next `count` steps, the same values the host would write into
/// the slots.
template <int Dims>
void advance_step_params(const Stream& stream, const LoopClock* clock, StepParams<Dims>* slots, int count,
                         const TimeSchedule& schedule);

/// completed += steps; the loop goes on while completed < target and no health check has
/// failed (`health` null: none runs). `condition` is the WHILE node's cudaGraphConditionalHandle.
void count_loop_steps(const Stream& stream, LoopClock* clock, int steps, const HealthRecord* health,
                      std::uint64_t condition);

}  // namespace simapp
