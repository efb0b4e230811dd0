#pragma once
/// Executors run StepPrograms (eagerly, or captured and replayed); every executor gives the
/// same results bit for bit, since all of them queue the same kernels in the same order.
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/spec/execution_mode.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

/// What an executor has done so far.
struct ExecutorStats {
  std::int64_t launches = 0;                 ///< kernel and transfer launches (eager) or graph launches (graph)
  std::int64_t host_ops = 0;                 ///< Host ops performed
  std::int64_t captures = 0;                 ///< segments captured
  std::int64_t instantiations = 0;           ///< executable graphs made
  double capture_seconds = 0.0;              ///< host time spent capturing
  double instantiate_seconds = 0.0;          ///< host time spent instantiating (and uploading)
  std::vector<std::size_t> nodes_per_graph;  ///< of every captured segment, in capture order
};

class StepExecutor {
 public:
  virtual ~StepExecutor() = default;
  /// Queues (or performs, for Host ops) every op of `program` on `stream`, in order.
  virtual void run(const StepProgram& program, const Stream& stream) = 0;
  /// Does the one-time work for `program` (capture) without running it.
  virtual void prepare(const StepProgram& program, const Stream& stream) = 0;
  const ExecutorStats& stats() const { return stats_; }

 protected:
  ExecutorStats stats_;
};

/// A bad_input Error naming execution.mode when `backend` cannot run `mode` (eager_streams and
/// graph_loop on the host).
void require_mode_runs_on(ExecutionMode mode, Backend backend);

/// The executor of `mode` (not compare) for a run on `backend` (require_mode_runs_on first).
std::unique_ptr<StepExecutor> make_executor(ExecutionMode mode, Backend backend);

}  // namespace simapp
