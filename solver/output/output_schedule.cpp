#include "solver/output/output_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace simapp {

std::vector<long> output_steps(const TimeStepping& stepping, double every, bool ends) {
  std::vector<long> steps;
  if (ends) steps.push_back(0);
  if (every > 0.0 && every < stepping.dt()) {
    // Shorter than a step: a multiple of the interval falls within every step.
    for (long n = 1; n < stepping.num_steps(); ++n) steps.push_back(n);
  } else if (every > 0.0) {
    // n ≥ m, so this ends by m = num_steps; n stays a double until it is known to be a step,
    // as an interval far longer than the run gives an n beyond `long`.
    for (long m = 1;; ++m) {
      // Smallest step n with time(n) ≥ m · every (within round-off).
      const double n = stepping.first_step_reaching(static_cast<double>(m) * every);
      if (!(n < static_cast<double>(stepping.num_steps()))) break;
      if (steps.empty() || static_cast<long>(n) > steps.back()) steps.push_back(static_cast<long>(n));
    }
  }
  if ((ends || every > 0.0) && (steps.empty() || steps.back() != stepping.num_steps()))
    steps.push_back(stepping.num_steps());
  if (!ends && every <= 0.0) steps.clear();
  return steps;
}

long next_output_step(const std::vector<long>& steps, long step) {
  const auto next = std::upper_bound(steps.begin(), steps.end(), step);
  return next == steps.end() ? -1 : *next;
}

}  // namespace simapp
