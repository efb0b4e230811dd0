#pragma once
/// `simapp FILE --plan`: the step program and how it maps to launches and graphs.
#include <cstdio>

#include "solver/simulation/run_spec.hpp"

namespace simapp::app {

void print_plan(std::FILE* out, const RunSpec& spec);

}  // namespace simapp::app
