#pragma once
/// execution.mode graph_loop: a batch is one launch of a loop graph (graph_loop.hpp) running
/// whole iterations of its body, with a chunk before it up to a multiple of the elements' period and one
/// after it where the launch reaches the run's next stop (plan_loop_launch); the chunks are
/// graphs of graph mode, their steps counted on the loop clock. The two loop graphs (bodies
/// starting on an odd or an even step) are captured on first use.
#include <map>
#include <memory>

#include "solver/executor/executor.hpp"
#include "solver/executor/graph_loop.hpp"
#include "solver/executor/graph_runner.hpp"

namespace simapp {

class GraphLoopExecutor final : public Executor {
 public:
  explicit GraphLoopExecutor(const ExecutorContext& context);

  void prepare(long completed, const ChunkEnds& chunk_ends) override;
  long advance(long completed, long batch, long steps_left) override;
  bool counts_steps_on_device() const override { return true; }
  long batch_granule() const override { return body_.steps; }
  ExecutorStats stats() const override;

 private:
  /// The loop graph whose body starts with parity `first` (captured on first use).
  const GraphLoop& loop_graph(StepParity first);
  /// Runs the `steps` steps after `completed` (none, or at most an iteration of the body) as one
  /// chunk, counting them on the loop clock; returns the step after them.
  long run_chunk(long completed, long steps);
  /// Captures the chunk of the `steps` steps after `completed` (none when 0); returns the step after them.
  long prepare_chunk(long completed, long steps);

  const Stream& stream_;
  ChunkPrograms& chunks_;
  LoopClock* clock_;
  LoopBody body_;
  LoopControl control_[2];  ///< per body parity (odd, even)
  std::map<StepParity, StepProgram> bodies_;
  std::map<StepParity, std::unique_ptr<GraphLoop>> loops_;
  GraphRunner chunk_runner_;
  ExecutorStats loop_stats_;  ///< the loop graphs' captures and launches, and the clock's kernels
};

}  // namespace simapp
