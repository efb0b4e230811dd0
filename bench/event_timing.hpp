#pragma once
/// best_milliseconds: the GPU time of work put on a stream, between two CUDA events, the best of
/// several repeats. For the benchmarks' host sources, which call the CUDA runtime.
#include <cuda_runtime.h>

#include <algorithm>

#include "bench/bench_cuda_check.cuh"
#include "kernels/backend/stream.hpp"

namespace simapp {

/// Milliseconds of the GPU work `queue()` puts on the stream, between two events, the best of
/// `repeats`; `prepare()` runs before each repeat, outside the events (a state to restore).
template <class Queue, class Prepare>
float best_milliseconds(const Stream& stream, int repeats, const Queue& queue, const Prepare& prepare) {
  cudaEvent_t begin, end;
  BENCH_CUDA_CHECK(cudaEventCreate(&begin));
  BENCH_CUDA_CHECK(cudaEventCreate(&end));
  float best_ms = 1e30f;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    prepare();
    BENCH_CUDA_CHECK(cudaEventRecord(begin, stream.cuda_stream));
    queue();
    BENCH_CUDA_CHECK(cudaEventRecord(end, stream.cuda_stream));
    BENCH_CUDA_CHECK(cudaEventSynchronize(end));
    float ms = 0.0f;
    BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
    best_ms = std::min(best_ms, ms);
  }
  BENCH_CUDA_CHECK(cudaEventDestroy(begin));
  BENCH_CUDA_CHECK(cudaEventDestroy(end));
  return best_ms;
}

/// The same, with nothing to prepare.
template <class Queue>
float best_milliseconds(const Stream& stream, int repeats, const Queue& queue) {
  return best_milliseconds(stream, repeats, queue, [] {});
}

}  // namespace simapp
