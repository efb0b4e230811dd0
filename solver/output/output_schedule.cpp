#include "solver/output/output_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace simapp {

std::vector<long> output_steps(const TimePlan& plan, double every, bool ends) {
  std::vector<long> steps;
  if (ends) steps.push_back(0);
  if (every > 0.0) {
    for (long m = 1;; ++m) {
      // Smallest step n with time(n) ≥ m · every (within round-off).
      const long n = static_cast<long>(std::ceil(static_cast<double>(m) * every / plan.dt() - 1e-9));
      if (n >= plan.num_steps()) break;
      if (steps.empty() || n > steps.back()) steps.push_back(n);
    }
  }
  if ((ends || every > 0.0) && (steps.empty() || steps.back() != plan.num_steps())) steps.push_back(plan.num_steps());
  if (!ends && every <= 0.0) steps.clear();
  return steps;
}

long next_output_step(const std::vector<long>& steps, long step) {
  const auto next = std::upper_bound(steps.begin(), steps.end(), step);
  return next == steps.end() ? -1 : *next;
}

}  // namespace simapp
