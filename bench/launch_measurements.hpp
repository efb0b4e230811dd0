#pragma once
/// The measurements of simapp-bench on the current device: eager launches, stream sync round
/// trips, CUDA-graph capture, instantiation and replay, grid-wide and cluster barriers, and the
/// latency of a load from shared, distributed shared and L2 memory;
/// docs/benchmarks.md explains every number. Each number comes with its statistics: median,
/// min, max and quartiles of config.repeat runs or of config.single_samples single launches,
/// with the samples (bench/sample_stats.hpp).
#include <memory>
#include <vector>

#include "bench/command_line.hpp"
#include "bench/launch_results.hpp"
#include "bench/launch_sizes.hpp"
#include "bench/sample_stats.hpp"

namespace simapp::bench {

struct Bench;

/// Runs the measurements on a stream, events and buffers of its own.
class LaunchBench {
 public:
  /// Creates the stream, the timing events and the scale kernel's buffers.
  explicit LaunchBench(const Config& config);
  ~LaunchBench();

  /// Launches both kernels and a graph until lazy module loading and clocks have settled.
  void warm_up() const;
  /// Checks that the scale kernel writes y = a*x (guards against numbers of a kernel that never ran).
  void verify_scale_kernel() const;

  /// 1. Empty kernel: event time, sync round trip, host enqueue cost.
  EmptyKernelTimes empty_kernel() const;
  /// 2. Short kernel (scale 500k floats): eager with and without overlap, as a graph, and its own duration.
  ShortKernelTimes short_kernel() const;
  /// 3. One point of the sweep over graph sizes: capture, instantiate and replay costs of a
  /// chain of `nodes` launches of `kernel`.
  SweepPoint graph(KernelKind kernel, int nodes) const;
  /// 5. The grids of the grid-barrier measurement: from a few blocks to as many as fit (a
  /// cooperative launch needs every block resident at once).
  std::vector<int> grid_barrier_blocks() const;
  /// 5. Grid-wide barriers (cooperative launch): µs per barrier in a grid of `blocks` blocks.
  GridBarrierTimes grid_barrier(int blocks) const;
  /// 6. Whether the device runs thread-block clusters (compute capability 9.0 and later).
  bool has_clusters() const;
  /// 6. The cluster shapes measured: one cluster of 2, 4, 8 and 16 blocks (16 where the device
  /// allows it), and as many of each as fit at once.
  std::vector<ClusterShape> cluster_shapes() const;
  /// 6. Cluster barriers: µs per barrier in a launch of `shape`.
  ClusterBarrierTimes cluster_barrier(const ClusterShape& shape) const;
  /// 6. ns a dependent load from shared memory, another block's shared memory and the L2 cache.
  LoadLatencies load_latencies() const;

 private:
  std::unique_ptr<const Bench> bench_;
};

}  // namespace simapp::bench
