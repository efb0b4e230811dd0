#include "solver/executor/graph_executor.hpp"

#include <stdexcept>

#include "foundation/error.hpp"
#include "solver/executor/eager_executor.hpp"
#if SIMAPP_USE_CUDA
#include "solver/executor/streams_executor.hpp"
#endif

namespace simapp {

const GraphExecutor::CapturedProgram& GraphExecutor::captured(const StepProgram& program, const Stream& stream) {
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

void GraphExecutor::prepare(const StepProgram& program, const Stream& stream) { captured(program, stream); }

void GraphExecutor::run(const StepProgram& program, const Stream& stream) {
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

void require_mode_runs_on(ExecutionMode mode, Backend backend) {
  if (!mode_runs_on(mode, backend))
    throw Error(ExitCode::bad_input, "execution.mode",
                std::string(to_string(mode)) + " needs the CUDA backend, but this run uses host");
}

std::unique_ptr<StepExecutor> make_executor(ExecutionMode mode, Backend backend) {
  require_mode_runs_on(mode, backend);
  switch (mode) {
    case ExecutionMode::eager_sync: return std::make_unique<EagerExecutor>(Synchronization::every_launch);
    case ExecutionMode::eager:
    case ExecutionMode::persistent:  // the kernel is the simulation's; ops (--profile) run eagerly
      return std::make_unique<EagerExecutor>(Synchronization::none);
#if SIMAPP_USE_CUDA
    case ExecutionMode::eager_streams: return std::make_unique<StreamsExecutor>();
#else
    case ExecutionMode::eager_streams: break;  // refused above: no CUDA backend in this build
#endif
    case ExecutionMode::graph:
    case ExecutionMode::graph_loop:  // the loop itself is the simulation's; chunks cut short are graphs
      return std::make_unique<GraphExecutor>();
    case ExecutionMode::compare: break;
  }
  throw std::invalid_argument("make_executor: compare is not an executor");
}

}  // namespace simapp
