#pragma once
/// `simapp FILE --plan`: the step program and how it maps to launches and graphs.
#include <cstdio>
#include <string>

#include "solver/decomposition/decomposition.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp::app {

/// The plan of rank 0 of `decomposition`, for a run on `backend`; `granularity`: spec's as the
/// reports name it (with what auto decided).
void print_plan(std::FILE* out, const RunSpec& spec, const Decomposition& decomposition, Backend backend,
                const std::string& granularity, const std::string& mode);

}  // namespace simapp::app
