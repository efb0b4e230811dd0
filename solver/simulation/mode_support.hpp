#pragma once
/// Which execution modes can run a case: the backend's, and what each mode needs of the
/// step (graph_loop: no host op inside a step; persistent: one rank, stage granularity).
#include <string>

#include "solver/decomposition/decomposition.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// Why `mode` (not compare) cannot run `spec` on `backend` over `decomposition`, as the rest
/// of a one-line error that starts with the mode's name; empty when it can.
std::string why_mode_cannot_run(ExecutionMode mode, const RunSpec& spec, Backend backend,
                                const Decomposition& decomposition);

/// Throws a bad_input Error naming execution.mode when why_mode_cannot_run says why.
void require_mode_can_run(ExecutionMode mode, const RunSpec& spec, Backend backend, const Decomposition& decomposition);

}  // namespace simapp
