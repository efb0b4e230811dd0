#pragma once
/// The run's time steps, decided once (docs/model.md, "Time stepping"):
///   dt = cfl · min(dx, dz) / max_speed,  n = ⌈sim_time/dt − 1e-9⌉,
///   dt_last = sim_time − (n − 1) dt when sim_time is not a whole multiple of dt.
/// Time is never accumulated by repeated addition: time(n) is computed from n.

namespace simapp {

class TimePlan {
 public:
  TimePlan(double sim_time, double dx, double dz);

  double dt() const { return dt_; }              ///< s
  long num_steps() const { return num_steps_; }
  double dt_last() const { return dt_last_; }    ///< s
  double sim_time() const { return sim_time_; }  ///< s

  /// dt of step `step` (1-based).
  double dt_of(long step) const { return step == num_steps_ ? dt_last_ : dt_; }
  /// Simulated time at the end of step `step` (0: the start).
  double time_after(long step) const;

 private:
  double sim_time_;
  double dt_;
  long num_steps_;
  double dt_last_;
};

}  // namespace simapp
