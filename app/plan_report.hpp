#pragma once
/// `simapp FILE --plan`: the step program and how it maps to launches and graphs.
#include <cstdio>

#include "solver/decomposition/decomposition.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp::app {

/// The plan of rank 0 of `decomposition`, for a run on `backend`.
void print_plan(std::FILE* out, const RunSpec& spec, const Decomposition& decomposition, Backend backend);

}  // namespace simapp::app
