#pragma once
/// The table --profile prints: each op of a step with its time, the bytes it must move, the
/// bandwidth it reaches against a plain copy's, and the step's totals and memory floor.
#include <cstdio>

#include "solver/simulation/step_profile.hpp"

namespace simapp::app {

void print_profile(std::FILE* out, const StepProfile& profile);

}  // namespace simapp::app
