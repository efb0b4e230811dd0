#include "solver/executor/graph_runner.hpp"

namespace simapp {

const GraphRunner::CapturedProgram& GraphRunner::captured(const StepProgram& program, const Stream& stream) {
  const auto found = captured_.find(&program);
  if (found != captured_.end()) return found->second;
  CapturedProgram segments{program.segments(), {}};
  for (const Segment& segment : segments.bounds) {
    CaptureTiming timing;
    segments.graphs.push_back(capture_segment(program, segment, stream, timing));
    ++stats_.captures;
    if (stream.backend == Backend::cuda) ++stats_.instantiations;
    stats_.capture_seconds += timing.capture_seconds;
    stats_.instantiate_seconds += timing.instantiate_seconds;
    stats_.nodes_per_graph.push_back(segments.graphs.back()->node_count());
  }
  return captured_.emplace(&program, std::move(segments)).first->second;
}

void GraphRunner::prepare(const StepProgram& program, const Stream& stream) { captured(program, stream); }

void GraphRunner::run(const StepProgram& program, const Stream& stream) {
  const CapturedProgram& segments = captured(program, stream);
  std::size_t next_op = 0;
  for (std::size_t s = 0; s < segments.bounds.size(); ++s) {
    for (; next_op < segments.bounds[s].first; ++next_op, ++stats_.host_ops) program.ops()[next_op].run(stream);
    segments.graphs[s]->replay(stream);
    ++stats_.launches;
    next_op = segments.bounds[s].last;
  }
  for (; next_op < program.ops().size(); ++next_op, ++stats_.host_ops) program.ops()[next_op].run(stream);
}

}  // namespace simapp
