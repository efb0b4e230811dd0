#include "bench/launch_harness.cuh"

namespace simapp::bench {

namespace {

__global__ void empty_kernel() {}

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned>(n)) y[i] = a * x[i];
}

}  // namespace

void Workload::enqueue(cudaStream_t stream, int count) const {
  if (kind == KernelKind::empty) {
    for (int i = 0; i < count; ++i) empty_kernel<<<1, 1, 0, stream>>>();
  } else {
    const int blocks = (kScaleElements + kScaleBlock - 1) / kScaleBlock;
    for (int i = 0; i < count; ++i)
      scale_kernel<<<blocks, kScaleBlock, 0, stream>>>(x, y, kScaleFactor, kScaleElements);
  }
  BENCH_CUDA_CHECK(cudaGetLastError());  // a failed launch stays the last error until read
}

Graph capture(cudaStream_t stream, const Workload& work, int count) {
  BENCH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    work.enqueue(stream, count);
  } catch (...) {
    static_cast<void>(cudaStreamEndCapture(stream, &graph));  // leave the stream usable
    Graph discarded(graph);
    throw;
  }
  BENCH_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return Graph(graph);
}

GraphExec instantiate(const Graph& graph) {
  cudaGraphExec_t exec = nullptr;
  BENCH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

void replay(cudaStream_t stream, const GraphExec& exec, int count, bool sync_each) {
  for (int i = 0; i < count; ++i) {
    BENCH_CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
    if (sync_each) BENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

}  // namespace simapp::bench
