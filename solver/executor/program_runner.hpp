#pragma once
/// Program runners queue the ops of a StepProgram on a stream: eagerly, on lane streams, or
/// captured once and replayed. Every runner gives the same results bit for bit, since all of
/// them queue the same kernels in the same order. The executors (executor.hpp) use them to run
/// the chunks of their modes.
#include "solver/executor/executor_stats.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class ProgramRunner {
 public:
  virtual ~ProgramRunner() = default;
  /// Queues (or performs, for Host ops) every op of `program` on `stream`, in order.
  virtual void run(const StepProgram& program, const Stream& stream) = 0;
  /// Does the one-time work for `program` (capture) without running it.
  virtual void prepare(const StepProgram& program, const Stream& stream) = 0;
  /// Whether prepare() does anything: the runner captures programs.
  virtual bool captures() const { return false; }
  const ExecutorStats& stats() const { return stats_; }

 protected:
  ExecutorStats stats_;
};

}  // namespace simapp
