#pragma once
/// When output happens, as step numbers decided once from the time stepping: the first step
/// whose end time reaches each multiple of the interval (and step 0 and the last step for
/// snapshots). Steps, not accumulated times, so every rank and restart agrees.
#include <vector>

#include "solver/time/time_stepping.hpp"

namespace simapp {

/// Steps at which an interval of `every` seconds falls due, in order; empty when every ≤ 0.
/// With `ends`, step 0 and the last step are included too. Any every > 0 works: shorter than
/// dt gives every step, longer than the run only the last step (and step 0 with `ends`).
std::vector<long> output_steps(const TimeStepping& stepping, double every, bool ends);

/// The first of `steps` after `step`, or -1.
long next_output_step(const std::vector<long>& steps, long step);

}  // namespace simapp
