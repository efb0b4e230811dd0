#include "solver/executor/graph_loop_executor.hpp"

namespace simapp {

GraphLoopExecutor::GraphLoopExecutor(const ExecutorContext& context)
    : stream_(context.stream),
      chunks_(context.chunks),
      clock_(context.loop_clock),
      body_(loop_body(context.steps_per_graph, context.chunks.cadences(), context.kernels_per_step)) {
  for (LoopControl& control : control_) control = {clock_, context.schedule, 0};
}

const GraphLoop& GraphLoopExecutor::loop_graph(StepParity first) {
  auto found = loops_.find(first);
  if (found != loops_.end()) return *found->second;
  LoopControl& control = control_[first == StepParity::odd ? 0 : 1];
  // A body that carries the elements starts on a multiple of their period: element e follows
  // its steps j with (j + 1) mod cadences[e] = 0.
  ChunkLayout layout{first, body_.steps, {}};
  const Cadences& cadences = chunks_.cadences();
  for (int j = 0; body_.checked && j < body_.steps; ++j)
    for (int e = 0; e < static_cast<int>(cadences.size()); ++e)
      if (cadences[e] > 0 && (j + 1) % cadences[e] == 0) layout.runs.push_back({j, e});
  const StepProgram& body = bodies_.try_emplace(first, chunks_.loop_body(layout, &control)).first->second;
  CaptureTiming timing;
  auto loop = std::make_unique<GraphLoop>(body, control, stream_, timing);
  ++loop_stats_.captures;
  ++loop_stats_.instantiations;
  loop_stats_.capture_seconds += timing.capture_seconds;
  loop_stats_.instantiate_seconds += timing.instantiate_seconds;
  loop_stats_.nodes_per_graph.push_back(loop->node_count());
  return *loops_.emplace(first, std::move(loop)).first->second;
}

long GraphLoopExecutor::run_chunk(long completed, long steps) {
  if (steps == 0) return completed;
  const int chunk = static_cast<int>(steps);
  chunk_runner_.run(chunks_.ready_program(completed, chunk), stream_);
  add_completed_steps(stream_, clock_, chunk);
  ++loop_stats_.launches;  // the count kernel
  return completed + chunk;
}

long GraphLoopExecutor::advance(long completed, long batch, long steps_left) {
  const LoopLaunch launch =
      plan_loop_launch(body_, completed, batch, steps_left, chunks_.num_steps(), chunks_.cadences());
  long at = run_chunk(completed, launch.lead_in);
  if (launch.iterations > 0) {
    const long steps = launch.iterations * body_.steps;
    set_loop_target(stream_, clock_, steps);
    loop_graph(parity_of(at + 1)).launch(stream_);
    loop_stats_.launches += 2;  // the target kernel and the loop graph
    at += steps;
  }
  return run_chunk(at, launch.rest) - completed;
}

long GraphLoopExecutor::prepare_chunk(long completed, long steps) {
  if (steps > 0) chunk_runner_.prepare(chunks_.program_after(completed, static_cast<int>(steps)), stream_);
  return completed + steps;
}

void GraphLoopExecutor::prepare(long completed, const ChunkEnds& chunk_ends) {
  // Each span to the next stop as one launch of the whole span: the chunks advance() takes.
  for (long at = completed; at < chunks_.num_steps();) {
    const long span = steps_to_next_end(at, chunk_ends, chunks_.num_steps());
    const LoopLaunch launch = plan_loop_launch(body_, at, span, span, chunks_.num_steps(), chunks_.cadences());
    at = prepare_chunk(at, launch.lead_in);
    if (launch.iterations > 0) loop_graph(parity_of(at + 1));
    at = prepare_chunk(at + launch.iterations * body_.steps, launch.rest);
  }
}

ExecutorStats GraphLoopExecutor::stats() const {
  ExecutorStats stats = chunk_runner_.stats();
  stats += loop_stats_;
  return stats;
}

}  // namespace simapp
