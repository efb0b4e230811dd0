#pragma once
/// The one place that maps execution modes to executors: which modes can run a case (the
/// backend's, and what each mode needs of the step: graph_loop no host op inside a step,
/// persistent one rank and stage or pass granularity), the StepParams<2> slots a mode's programs need
/// before they are built, and the executor of a mode.
#include <memory>
#include <string>

#include "solver/decomposition/decomposition.hpp"
#include "solver/executor/executor.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// Why `mode` (not compare) cannot run `spec` on `backend` over `decomposition`, as the rest
/// of a one-line error that starts with the mode's name; empty when it can.
std::string why_mode_cannot_run(ExecutionMode mode, const RunSpec& spec, Backend backend,
                                const Decomposition& decomposition);

/// Throws a bad_input Error naming execution.mode when why_mode_cannot_run says why.
void require_mode_can_run(ExecutionMode mode, const RunSpec& spec, Backend backend, const Decomposition& decomposition);

/// StepParams<2> slots for any steps per graph the run may choose, known before its step is built (the step's
/// kernels read their slots through pointers fixed when it is built).
int step_params_slots(ExecutionMode mode, const ExecutionSpec& execution);

/// The executor of `mode` (not compare) for `spec` over `decomposition` on the backend of
/// context.stream; require_mode_can_run first.
std::unique_ptr<Executor> make_executor(ExecutionMode mode, const RunSpec& spec, const Decomposition& decomposition,
                                        const ExecutorContext& context);

}  // namespace simapp
