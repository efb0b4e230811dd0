#include "solver/time/time_plan.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/physics/constants.hpp"

namespace simapp {

TimePlan::TimePlan(double sim_time, double dx, double dz)
    : sim_time_(sim_time), dt_(numerics::cfl * std::min(dx, dz) / numerics::max_speed) {
  constexpr double tolerance = 1e-9;
  const double steps_exact = sim_time / dt_;
  num_steps_ = std::max(1L, static_cast<long>(std::ceil(steps_exact - tolerance)));
  const bool whole_multiple = std::abs(steps_exact - static_cast<double>(num_steps_)) <= tolerance;
  dt_last_ = whole_multiple ? dt_ : sim_time - static_cast<double>(num_steps_ - 1) * dt_;
}

double TimePlan::time_after(long step) const {
  if (step >= num_steps_) return sim_time_;
  return static_cast<double>(step) * dt_;
}

}  // namespace simapp
