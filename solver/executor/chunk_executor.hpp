#pragma once
/// execution.mode eager_sync, eager, eager_streams and graph: the run's steps as chunks of steps_per_graph
/// steps (steps_per_graph; fewer where the run ends), each chunk program queued by a program
/// runner: op by op (waiting after each for eager_sync), op by op on lane streams, or
/// captured once and replayed.
#include <memory>

#include "solver/executor/executor.hpp"
#include "solver/executor/program_runner.hpp"

namespace simapp {

class ChunkExecutor final : public Executor {
 public:
  ChunkExecutor(const ExecutorContext& context, std::unique_ptr<ProgramRunner> runner);

  void prepare(long completed, const ChunkEnds& chunk_ends) override;
  long advance(long completed, long batch, long steps_left) override;
  ExecutorStats stats() const override { return runner_->stats(); }

 private:
  const Stream& stream_;
  ChunkPrograms& chunks_;
  int steps_per_graph_;
  std::unique_ptr<ProgramRunner> runner_;
};

}  // namespace simapp
