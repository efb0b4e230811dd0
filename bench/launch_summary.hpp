#pragma once
/// 4. The floors: the eager enqueue cost against the graph cost per node, each per-node cost the
/// slope of the sweep between its kFitSmall- and kFitLarge-node graphs. Every number is derived:
/// its value from the medians, its bounds from the ranges of the measurements it comes from.
#include <vector>

#include "bench/launch_results.hpp"
#include "bench/sample_stats.hpp"

namespace simapp::bench {

/// Slope fits of one kernel's sweep: µs per node.
struct NodeFit {
  Stats replay_us_per_node;       ///< graph launch + stream sync
  Stats replay_b2b_us_per_node;   ///< back-to-back graph launches
  Stats instantiate_us_per_node;  ///< cudaGraphInstantiate
};

/// The floors in µs, and how they compare.
struct Summary {
  Stats eager_enqueue_us_per_kernel;  ///< the empty kernel's host enqueue cost (measured)
  NodeFit fit_empty;
  NodeFit fit_scale;
  Stats eager_over_graph_node;       ///< eager enqueue cost / graph cost per node, empty kernels
  Stats short_kernel_graph_speedup;  ///< short kernel: sync after each / graph, per kernel
};

/// The floors of `empty_kernel` and of `points`, the sweeps of both kernels; `short_kernel` for its
/// graph speedup.
Summary summarize(const EmptyKernelTimes& empty_kernel, const ShortKernelTimes& short_kernel,
                  const std::vector<SweepPoint>& points);

}  // namespace simapp::bench
