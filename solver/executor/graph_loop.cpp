#include "solver/executor/graph_loop.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "foundation/error.hpp"
#include "foundation/host_clock.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#include "solver/executor/graph_instantiate_error.hpp"
#endif

namespace simapp {

LoopBody loop_body(int steps_per_graph, const Cadences& cadences, std::size_t kernels_per_step) {
  const int even = steps_per_graph % 2 == 0 ? steps_per_graph : 2 * steps_per_graph;
  const long period = cadence_period(cadences);
  if (period <= 0) return {even, false};
  const long interval = std::lcm(2L, period);
  const long nearest = std::max(interval, (steps_per_graph + interval / 2) / interval * interval);
  if (nearest <= even || static_cast<std::size_t>(nearest) * kernels_per_step <= max_checked_loop_body_kernels)
    return {static_cast<int>(nearest), true};
  return {even, false};
}

LoopLaunch plan_loop_launch(const LoopBody& body, long completed, long batch, long span, long num_steps,
                            const Cadences& cadences) {
  LoopLaunch launch;
  const long reach = std::min(batch, span);
  if (body.checked) {
    const long period = cadence_period(cadences);
    launch.lead_in = std::min(reach, (period - completed % period) % period);
    const long after_lead_in = reach - launch.lead_in;
    launch.iterations = after_lead_in / body.steps;
    launch.rest = batch >= span ? after_lead_in % body.steps : 0;
    return launch;
  }
  // The next step an element follows, when the span holds it, ends what the launch runs, in a
  // chunk.
  long end = span;
  bool ends_on_check = false;
  const long next_element = next_element_step(completed, num_steps, cadences);
  if (next_element > 0 && next_element - completed <= span) {
    end = next_element - completed;
    ends_on_check = true;
  }
  launch.iterations = std::min(reach, ends_on_check ? end - 1 : end) / body.steps;
  launch.rest = batch >= end ? end - launch.iterations * body.steps : 0;
  return launch;
}

#if SIMAPP_USE_CUDA

GraphLoop::GraphLoop(const StepProgram& body, LoopControl& control, const Stream& stream, CaptureTiming& timing) {
#if CUDART_VERSION < 12040
  throw Error(ExitCode::bad_input, "execution.mode",
              "graph_loop needs conditional WHILE graph nodes (CUDA 12.4 or later); this simapp was built with CUDA " +
                  std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10));
#endif
  auto start = std::chrono::steady_clock::now();
  cudaGraph_t graph = nullptr;
  SIMAPP_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle condition = 0;
  // Every launch starts with the condition 1: the body runs at least once.
  SIMAPP_CUDA_CHECK(cudaGraphConditionalHandleCreate(&condition, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = condition;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t loop = nullptr;
  SIMAPP_CUDA_CHECK(cudaGraphAddNode(&loop, graph, nullptr, nullptr, 0, &params));
  control.condition = static_cast<std::uint64_t>(condition);
  capture_into_cuda_graph(body, Segment{0, body.ops().size()}, stream, params.conditional.phGraph_out[0]);
  SIMAPP_CUDA_CHECK(cudaGraphGetNodes(params.conditional.phGraph_out[0], nullptr, &nodes_));
  nodes_ += 1;
  timing.capture_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  cudaGraphInstantiateParams instantiate{};
  instantiate.flags = cudaGraphInstantiateFlagUpload;
  instantiate.uploadStream = stream.cuda_stream;
  const cudaError_t made = cudaGraphInstantiateWithParams(&exec_, graph, &instantiate);
  const bool failed = made != cudaSuccess || instantiate.result_out != cudaGraphInstantiateSuccess;
  const std::string failure = failed ? graph_instantiate_error(made, instantiate) : std::string();
  cudaGraphDestroy(graph);
  if (failed) throw Error(ExitCode::internal, "graph_loop", "instantiating the loop graph: " + failure);
  SIMAPP_CUDA_CHECK(cudaStreamSynchronize(stream.cuda_stream));  // the upload
  timing.instantiate_seconds = seconds_since(start);
}

GraphLoop::~GraphLoop() { cudaGraphExecDestroy(exec_); }

void GraphLoop::launch(const Stream& stream) const { SIMAPP_CUDA_CHECK(cudaGraphLaunch(exec_, stream.cuda_stream)); }

#else

GraphLoop::GraphLoop(const StepProgram&, LoopControl&, const Stream&, CaptureTiming&) {
  throw Error(ExitCode::internal, "graph_loop", "this simapp was built without CUDA");
}

GraphLoop::~GraphLoop() = default;

void GraphLoop::launch(const Stream&) const {}

#endif

}  // namespace simapp
