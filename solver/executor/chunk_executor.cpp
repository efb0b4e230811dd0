#include "solver/executor/chunk_executor.hpp"

#include <algorithm>

namespace simapp {

ChunkExecutor::ChunkExecutor(const ExecutorContext& context, std::unique_ptr<ProgramRunner> runner)
    : stream_(context.stream),
      chunks_(context.chunks),
      steps_per_graph_(context.steps_per_graph),
      runner_(std::move(runner)) {}

void ChunkExecutor::prepare(long completed, const ChunkEnds& chunk_ends) {
  if (!runner_->captures()) return;
  for (long at = completed; at < chunks_.num_steps();) {
    const int steps =
        static_cast<int>(std::min<long>(steps_to_next_end(at, chunk_ends, chunks_.num_steps()), steps_per_graph_));
    runner_->prepare(chunks_.program_after(at, steps), stream_);
    at += steps;
  }
}

long ChunkExecutor::advance(long completed, long /*batch*/, long steps_left) {
  const int steps = static_cast<int>(std::min<long>({steps_per_graph_, chunks_.num_steps() - completed, steps_left}));
  runner_->run(chunks_.ready_program(completed, steps), stream_);
  return steps;
}

}  // namespace simapp
