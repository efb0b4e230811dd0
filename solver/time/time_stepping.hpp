#pragma once
/// The run's time steps, decided once (docs/model.md, "Time stepping"):
///   dt = cfl · min(dx, dz) / max_speed, and with diffusion (a viscosity ν or a diffusivity κ > 0)
///   at most diffusion_number · min(dx, dz)² / max(ν, κ);   n = ⌈sim_time/dt − step_tolerance⌉,
///   dt_last = sim_time − (n − 1) dt when sim_time is not a whole multiple of dt.
/// Time is never accumulated by repeated addition: time(n) is computed from n.

namespace simapp {

/// The most steps a run may take, 2^31 − 1: far more than any run needs, and every step
/// number and count derived from it stays exact in a double and inside `long`.
inline constexpr long max_time_steps = 2147483647;

/// Round-off on the step grid, as a fraction of dt: a time within step_tolerance · dt of a
/// step's end is that step's end.
inline constexpr double step_tolerance = 1e-9;

/// ν dt / Δ² a time step keeps below (the RK3 step of a split pass is stable with second-order
/// diffusion up to about 0.6).
inline constexpr double diffusion_number = 0.25;

/// dt for cells of dx × dz (m) at Courant number `cfl` and diffusion coefficient `diffusion`, the
/// larger of ν and κ (m² s⁻¹; Dissipation::largest_coefficient), s.
double time_step(double dx, double dz, double cfl, double diffusion = 0.0);

/// Whether the diffusive bound, not the Courant number, sets time_step's dt.
bool diffusion_limits_time_step(double dx, double dz, double cfl, double diffusion);

/// n = ⌈sim_time/dt − step_tolerance⌉, at least 1, as a double so that a count beyond `long` (a
/// configuration to refuse) is still represented.
double step_count(double sim_time, double dt);

/// Where a plan's steps start: step 0 at t = 0, or (a run extended from a checkpoint that is
/// not on its step grid) the checkpoint's step and time, from which steps of dt follow.
struct TimeOrigin {
  long step = 0;
  double time = 0.0;  ///< s
};

class TimeStepping {
 public:
  /// Needs step_count(sim_time, time_step(dx, dz, cfl)) ≤ max_time_steps (load_config checks
  /// it); throws an internal Error otherwise. With an origin, steps origin.step + 1, … take
  /// dt from origin.time, the last shortened to land on sim_time (origin.time < sim_time).
  TimeStepping(double sim_time, double dx, double dz, double cfl, double diffusion = 0.0, TimeOrigin origin = {});

  double dt() const { return dt_; }  ///< s
  long num_steps() const { return num_steps_; }
  double dt_last() const { return dt_last_; }    ///< s
  double sim_time() const { return sim_time_; }  ///< s

  /// dt of step `step` (1-based).
  double dt_of(long step) const { return step == num_steps_ ? dt_last_ : dt_; }
  /// Simulated time at the end of step `step` (0: the start).
  double time_after(long step) const;
  /// The first step whose end time reaches `time` (within round-off), at most num_steps().
  double first_step_reaching(double time) const;
  const TimeOrigin& origin() const { return origin_; }

 private:
  double sim_time_;
  TimeOrigin origin_;
  double dt_;
  long num_steps_;
  double dt_last_;
};

}  // namespace simapp
