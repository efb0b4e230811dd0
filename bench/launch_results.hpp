#pragma once
/// What the measurements of simapp-bench hand to its report; all times in µs, each the median
/// of its repeated runs with their spread (bench/sample_stats.hpp).
#include <string>

#include "bench/sample_stats.hpp"

namespace simapp::bench {

/// 1. The empty kernel <<<1,1>>>, launched alone.
struct EmptyKernelTimes {
  Stats event_us;               ///< CUDA events around one launch (config.single_samples launches)
  Stats round_trip_us;          ///< launch + stream sync round trip (host clock, config.single_samples launches)
  Stats enqueue_us_per_launch;  ///< host enqueue cost per launch (kEnqueueBatch back to back), config.repeat runs
  int samples = 0;              ///< single launches timed for each of event_us and round_trip_us
};

/// 2. The short kernel (y = a*x on kScaleElements floats), host µs per kernel of
/// kShortKernelBatch kernels launched three ways, and its own duration.
struct ShortKernelTimes {
  Stats sync_each_us_per_kernel;   ///< sync after every launch
  Stats group_sync_us_per_kernel;  ///< kShortKernelGroup launches, then one sync
  Stats graph_us_per_kernel;       ///< graphs of kShortKernelGroup kernels, launch + sync per graph
  Stats kernel_us;                 ///< GPU time of one kernel (events around a kKernelDurationNodes-node graph)
  Stats bandwidth_gbs;             ///< x read and y written in kernel_us (derived: bounds from kernel_us's range)
};

/// 3. One graph size of the sweep; all times in µs (host clock), per graph.
struct SweepPoint {
  std::string kernel;
  int nodes = 0;
  int replays = 0;       ///< graph launches per replay measurement
  Stats capture_us;      ///< stream capture of the chain, per graph
  Stats instantiate_us;  ///< cudaGraphInstantiate, per graph
  Stats replay_sync_us;  ///< graph launch + stream sync, per graph
  Stats replay_b2b_us;   ///< back-to-back launches then one sync, per graph
};

/// 5., 6. Barriers in one launch of a barrier kernel; GPU µs (events).
struct BarrierTimes {
  Stats with_barriers_us;  ///< one launch doing kBarriersPerKernel barriers
  Stats no_barriers_us;    ///< the same launch doing none
  Stats us_per_barrier;    ///< their difference per barrier (derived: bounds from both ranges)
};

/// 5. Grid-wide barriers in one grid of `blocks` blocks of the cooperative kernel.
struct GridBarrierTimes : BarrierTimes {
  int blocks = 0;
};

/// 6. A shape of thread-block clusters: `clusters` clusters of `size` blocks.
struct ClusterShape {
  int size = 0;
  int clusters = 0;
};

/// 6. Cluster barriers in one launch of `shape`.
struct ClusterBarrierTimes : BarrierTimes {
  ClusterShape shape;
};

/// 6. ns of one load in a chain of kChainLoads dependent loads (the difference against a chain of
/// none, per load).
struct LoadLatencies {
  Stats own_shared_ns;          ///< the block's own shared memory
  Stats other_block_shared_ns;  ///< another block's of the cluster (distributed shared memory)
  Stats l2_ns;                  ///< global memory through the L2 cache (ld.global.cg, around L1)
};

}  // namespace simapp::bench
