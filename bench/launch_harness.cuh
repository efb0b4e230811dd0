#pragma once
/// What the measurements of simapp-bench share: the kernels and what launches them, the bench's
/// stream, events and buffers, GPU timing with events, and graphs captured from the stream.
#include <cuda_runtime.h>

#include "bench/bench_cuda_check.cuh"
#include "bench/command_line.hpp"
#include "bench/cuda_handles.cuh"
#include "bench/launch_results.hpp"
#include "bench/launch_sizes.hpp"
#include "bench/sample_stats.hpp"

namespace simapp::bench {

/// One of the two benchmark kernels with its arguments.
struct Workload {
  KernelKind kind = KernelKind::empty;
  const float* x = nullptr;
  float* y = nullptr;

  const char* name() const { return kind == KernelKind::empty ? "empty" : "scale"; }

  /// Enqueues the kernel `count` times back to back on `stream`; a failed launch is reported after the loop.
  void enqueue(cudaStream_t stream, int count) const;
};

/// Everything the measurements share.
struct Bench {
  explicit Bench(const Config& settings) : config(settings) {}

  Config config;
  Stream stream = make_stream();
  Event start = make_event();
  Event stop = make_event();
  DevicePointer x = make_device_floats(kScaleElements);
  DevicePointer y = make_device_floats(kScaleElements);

  cudaStream_t s() const { return stream.get(); }
  Workload empty() const { return Workload{KernelKind::empty}; }
  Workload scale() const {
    return Workload{KernelKind::scale, static_cast<const float*>(x.get()), static_cast<float*>(y.get())};
  }
  void sync() const { BENCH_CUDA_CHECK(cudaStreamSynchronize(s())); }
};

/// GPU time in microseconds between events recorded around `enqueue()` on the bench stream.
template <class Enqueue>
double gpu_us(const Bench& bench, Enqueue&& enqueue) {
  BENCH_CUDA_CHECK(cudaEventRecord(bench.start.get(), bench.s()));
  enqueue();
  BENCH_CUDA_CHECK(cudaEventRecord(bench.stop.get(), bench.s()));
  BENCH_CUDA_CHECK(cudaEventSynchronize(bench.stop.get()));
  float ms = 0.0F;
  BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, bench.start.get(), bench.stop.get()));
  return 1000.0 * static_cast<double>(ms);
}

/// A barrier kernel's times from `kernel_us(barriers)`, the GPU µs of a launch doing `barriers`
/// barriers: the difference between launches of kBarriersPerKernel and of no barriers, per
/// barrier, bounded by both ranges.
template <class KernelUs>
void measure_barriers(BarrierTimes& times, const KernelUs& kernel_us) {
  times.with_barriers_us = kernel_us(kBarriersPerKernel);
  times.no_barriers_us = kernel_us(0);
  times.us_per_barrier = difference_over(times.with_barriers_us, times.no_barriers_us, kBarriersPerKernel);
}

/// Captures `count` launches of `work` into a new graph: a chain, each node after the last.
Graph capture(cudaStream_t stream, const Workload& work, int count);

/// An executable graph of `graph` (flags 0).
GraphExec instantiate(const Graph& graph);

/// Launches `exec` `count` times on `stream`, each launch followed by a stream sync when `sync_each`.
void replay(cudaStream_t stream, const GraphExec& exec, int count, bool sync_each);

}  // namespace simapp::bench
