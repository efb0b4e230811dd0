#pragma once
/// The cadences of a step's elements (solver/step/step_elements.hpp): element e follows each
/// multiple of cadences[e] steps and the run's last step (0: never). Chunk layouts, the steps a
/// graph holds and the graph_loop body read them here, whatever the elements are.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kernels/time/cadence.hpp"

namespace simapp {

using Cadences = std::vector<int>;

/// The steps after which the elements' pattern repeats: the lcm of the positive cadences; 0
/// where no element runs.
inline long cadence_period(const Cadences& cadences) {
  long period = 0;
  for (const int every : cadences)
    if (every > 0) period = period == 0 ? every : std::lcm(period, static_cast<long>(every));
  return period;
}

/// The first step after `completed` that some element follows (at most `num_steps`), or -1
/// where no element runs.
inline long next_element_step(long completed, long num_steps, const Cadences& cadences) {
  long next = -1;
  for (const int every : cadences)
    if (every > 0) {
      const long multiple = std::min(num_steps, (completed / every + 1) * every);
      next = next < 0 ? multiple : std::min(next, multiple);
    }
  return next;
}

}  // namespace simapp
