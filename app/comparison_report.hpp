#pragma once
/// The table execution.mode = compare prints.
#include <cstdio>

#include "solver/simulation/mode_comparison.hpp"

namespace simapp::app {

void print_comparison(std::FILE* out, const ModeComparison& comparison);

}  // namespace simapp::app
