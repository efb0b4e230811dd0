#include "solver/executor/graph_loop.hpp"

#include <chrono>
#include <string>

#include "kernels/backend/error.hpp"
#include "kernels/backend/host_clock.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp {

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
  cudaGraphDestroy(graph);
  if (made != cudaSuccess || instantiate.result_out != cudaGraphInstantiateSuccess)
    throw Error(ExitCode::internal, "graph_loop",
                std::string("instantiating the loop graph: ") + cudaGetErrorString(made));
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
