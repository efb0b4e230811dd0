#include "bench/launch_measurements.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <fmt/core.h>

#include "bench/bench_cuda_check.cuh"
#include "bench/cuda_handles.cuh"
#include "bench/host_timing.hpp"
#include "bench/launch_harness.cuh"
#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

/// `barriers` grid-wide barriers, nothing else: the cost of a barrier between the stages of a
/// persistent kernel.
__global__ void grid_barrier_kernel(int barriers) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (int b = 0; b < barriers; ++b) grid.sync();
}

/// Host µs per kernel of `kShortKernelBatch` scale kernels, synced every `group` kernels.
Stats short_kernel_eager_us(const Bench& bench, int group) {
  const auto run_batch = [&] {
    for (int done = 0; done < kShortKernelBatch; done += group) {
      bench.scale().enqueue(bench.s(), group);
      bench.sync();
    }
  };
  return repeated(bench.config.repeat, [&] { return host_us(run_batch) / kShortKernelBatch; });
}

/// Host µs per kernel of `kShortKernelBatch` scale kernels run as graphs of `kShortKernelGroup`, synced per graph.
Stats short_kernel_graph_us(const Bench& bench) {
  const GraphExec exec = instantiate(capture(bench.s(), bench.scale(), kShortKernelGroup));
  return repeated(bench.config.repeat, [&] {
    return host_us([&] { replay(bench.s(), exec, kShortKernelBatch / kShortKernelGroup, true); }) / kShortKernelBatch;
  });
}

/// GPU µs of one scale kernel: events around a graph of `kKernelDurationNodes` of them.
Stats scale_kernel_duration_us(const Bench& bench) {
  const GraphExec exec = instantiate(capture(bench.s(), bench.scale(), kKernelDurationNodes));
  return repeated(bench.config.repeat,
                  [&] { return gpu_us(bench, [&] { replay(bench.s(), exec, 1, false); }) / kKernelDurationNodes; });
}

/// Host µs of one capture of `nodes` launches into `graph` (its old graph is destroyed before timing).
double timed_capture(const Bench& bench, const Workload& work, int nodes, Graph& graph) {
  graph.reset();
  const Clock::time_point start = Clock::now();
  Graph captured = capture(bench.s(), work, nodes);
  const double us = elapsed_us(start);
  graph = std::move(captured);
  return us;
}

/// Host µs of one instantiation of `graph` into `exec` (its old exec is destroyed before timing).
double timed_instantiate(const Graph& graph, GraphExec& exec) {
  exec.reset();
  const Clock::time_point start = Clock::now();
  GraphExec instantiated = instantiate(graph);
  const double us = elapsed_us(start);
  exec = std::move(instantiated);
  return us;
}

/// Host µs per graph of `replays` launches of `exec`, synced after each or once at the end.
Stats replay_us(const Bench& bench, const GraphExec& exec, int replays, bool sync_each) {
  const auto run_batch = [&] {
    replay(bench.s(), exec, replays, sync_each);
    bench.sync();
  };
  return repeated(bench.config.repeat, [&] { return host_us(run_batch) / replays; });
}

/// GPU µs of one cooperative launch of grid_barrier_kernel: `blocks` blocks, `barriers` barriers.
Stats grid_barrier_kernel_us(const Bench& bench, int blocks, int barriers) {
  void* args[] = {&barriers};
  return repeated(bench.config.repeat, [&] {
    return gpu_us(bench, [&] {
      BENCH_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_barrier_kernel), dim3(blocks),
                                                   dim3(kBarrierThreads), args, 0, bench.s()));
    });
  });
}

}  // namespace

LaunchBench::LaunchBench(const Config& config) : bench_(std::make_unique<const Bench>(config)) {}

LaunchBench::~LaunchBench() = default;

void LaunchBench::warm_up() const {
  const Bench& bench = *bench_;
  for (int round = 0; round < 10; ++round) {
    bench.empty().enqueue(bench.s(), 200);
    bench.scale().enqueue(bench.s(), 20);
    bench.sync();
  }
  const GraphExec exec = instantiate(capture(bench.s(), bench.empty(), 10));
  replay(bench.s(), exec, 10, true);
}

void LaunchBench::verify_scale_kernel() const {
  const Bench& bench = *bench_;
  std::vector<float> x(kScaleElements);
  for (int i = 0; i < kScaleElements; ++i) x[static_cast<std::size_t>(i)] = 0.25F * static_cast<float>(i % 4096);
  const std::size_t bytes = sizeof(float) * x.size();
  BENCH_CUDA_CHECK(cudaMemcpy(bench.x.get(), x.data(), bytes, cudaMemcpyHostToDevice));
  BENCH_CUDA_CHECK(cudaMemset(bench.y.get(), 0, bytes));
  bench.scale().enqueue(bench.s(), 1);
  bench.sync();
  std::vector<float> y(x.size());
  BENCH_CUDA_CHECK(cudaMemcpy(y.data(), bench.y.get(), bytes, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (y[i] != kScaleFactor * x[i])
      throw Error(ExitCode::internal, "verify",
                  fmt::format("scale kernel wrote y[{}] = {}, expected {}", i, y[i], kScaleFactor * x[i]));
}

EmptyKernelTimes LaunchBench::empty_kernel() const {
  const Bench& bench = *bench_;
  const int samples = bench.config.single_samples;
  const Workload work = bench.empty();
  std::vector<double> event_us;
  std::vector<double> round_trip_us;
  for (int i = 0; i < samples; ++i) event_us.push_back(gpu_us(bench, [&] { work.enqueue(bench.s(), 1); }));
  for (int i = 0; i < samples; ++i)
    round_trip_us.push_back(host_us([&] {
      work.enqueue(bench.s(), 1);
      bench.sync();
    }));
  Stats enqueue_us = repeated(bench.config.repeat, [&] {
    const double us = host_us([&] { work.enqueue(bench.s(), kEnqueueBatch); });
    bench.sync();
    return us / kEnqueueBatch;
  });
  return {stats_of(std::move(event_us)), stats_of(std::move(round_trip_us)), std::move(enqueue_us), samples};
}

ShortKernelTimes LaunchBench::short_kernel() const {
  const Bench& bench = *bench_;
  ShortKernelTimes times;
  times.sync_each_us_per_kernel = short_kernel_eager_us(bench, 1);
  times.group_sync_us_per_kernel = short_kernel_eager_us(bench, kShortKernelGroup);
  times.graph_us_per_kernel = short_kernel_graph_us(bench);
  times.kernel_us = scale_kernel_duration_us(bench);
  const double bytes = 2.0 * sizeof(float) * kScaleElements;        // read x, write y
  times.bandwidth_gbs = reciprocal(bytes * 1e-3, times.kernel_us);  // bytes / (µs · 1e-6) / 1e9
  return times;
}

SweepPoint LaunchBench::graph(KernelKind kernel, int nodes) const {
  const Bench& bench = *bench_;
  const Workload work = kernel == KernelKind::empty ? bench.empty() : bench.scale();
  SweepPoint point;
  point.kernel = work.name();
  point.nodes = nodes;
  point.replays = std::clamp(kReplayNodeBudget / nodes, 5, 200);
  Graph graph;
  GraphExec exec;
  point.capture_us = repeated(bench.config.repeat, [&] { return timed_capture(bench, work, nodes, graph); });
  point.instantiate_us = repeated(bench.config.repeat, [&] { return timed_instantiate(graph, exec); });
  graph.reset();  // the executable graph does not need it; large graphs are not kept around
  point.replay_sync_us = replay_us(bench, exec, point.replays, true);
  point.replay_b2b_us = replay_us(bench, exec, point.replays, false);
  return point;
}

std::vector<int> LaunchBench::grid_barrier_blocks() const {
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  BENCH_CUDA_CHECK(cudaGetDevice(&device));
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  BENCH_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, grid_barrier_kernel, kBarrierThreads, 0));
  std::vector<int> grids;
  for (const int blocks : {16, 48, 80, multiprocessors, 4 * multiprocessors})
    if (blocks <= per_multiprocessor * multiprocessors) grids.push_back(blocks);
  return grids;
}

GridBarrierTimes LaunchBench::grid_barrier(int blocks) const {
  GridBarrierTimes times;
  times.blocks = blocks;
  measure_barriers(times, [&](int barriers) { return grid_barrier_kernel_us(*bench_, blocks, barriers); });
  return times;
}

}  // namespace simapp::bench
