#include "solver/time/time_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "foundation/error.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {
namespace {

double acoustic_time_step(double dx, double dz, double cfl) { return cfl * std::min(dx, dz) / numerics::max_speed; }

double diffusive_time_step(double dx, double dz, double diffusion) {
  const double spacing = std::min(dx, dz);
  return diffusion_number * spacing * spacing / diffusion;
}

}  // namespace

double time_step(double dx, double dz, double cfl, double diffusion) {
  const double acoustic = acoustic_time_step(dx, dz, cfl);
  return diffusion > 0.0 ? std::min(acoustic, diffusive_time_step(dx, dz, diffusion)) : acoustic;
}

bool diffusion_limits_time_step(double dx, double dz, double cfl, double diffusion) {
  return diffusion > 0.0 && diffusive_time_step(dx, dz, diffusion) < acoustic_time_step(dx, dz, cfl);
}

double step_count(double sim_time, double dt) { return std::max(1.0, std::ceil(sim_time / dt - step_tolerance)); }

TimeStepping::TimeStepping(double sim_time, double dx, double dz, double cfl, double diffusion, TimeOrigin origin)
    : sim_time_(sim_time), origin_(origin), dt_(time_step(dx, dz, cfl, diffusion)) {
  const double remaining = sim_time - origin.time;
  const double steps = static_cast<double>(origin.step) + step_count(remaining, dt_);
  if (!(steps <= static_cast<double>(max_time_steps)))
    throw Error(ExitCode::internal, "time stepping",
                "more than " + std::to_string(max_time_steps) + " steps (the configuration check refuses these)");
  num_steps_ = static_cast<long>(steps);
  const double last = static_cast<double>(num_steps_ - origin.step);
  const bool whole_multiple = std::abs(remaining / dt_ - last) <= step_tolerance;
  dt_last_ = whole_multiple ? dt_ : remaining - (last - 1) * dt_;
}

double TimeStepping::time_after(long step) const {
  if (step >= num_steps_) return sim_time_;
  return origin_.time + static_cast<double>(step - origin_.step) * dt_;
}

double TimeStepping::first_step_reaching(double time) const {
  const double step = static_cast<double>(origin_.step) + std::ceil((time - origin_.time) / dt_ - step_tolerance);
  return std::min(step, static_cast<double>(num_steps_));
}

}  // namespace simapp
