#pragma once
/// 4. The floors: the eager enqueue cost against the graph cost per node, each per-node cost the
/// slope of the sweep between its kFitSmall- and kFitLarge-node graphs.
#include <vector>

#include "bench/launch_results.hpp"

namespace simapp::bench {

/// Slope fits of one kernel's sweep: µs per node.
struct NodeFit {
  double replay_us_per_node = 0;       ///< graph launch + stream sync
  double replay_b2b_us_per_node = 0;   ///< back-to-back graph launches
  double instantiate_us_per_node = 0;  ///< cudaGraphInstantiate
};

/// The floors in µs, and how they compare.
struct Summary {
  double eager_enqueue_us_per_kernel = 0;  ///< the empty kernel's host enqueue cost
  NodeFit fit_empty;
  NodeFit fit_scale;
  double eager_over_graph_node = 0;       ///< eager enqueue cost / graph cost per node, empty kernels
  double short_kernel_graph_speedup = 0;  ///< short kernel: sync after each / graph, per kernel
};

/// The floors of `empty_kernel` and of `points`, the sweeps of both kernels; `short_kernel` for its
/// graph speedup.
Summary summarize(const EmptyKernelTimes& empty_kernel, const ShortKernelTimes& short_kernel,
                  const std::vector<SweepPoint>& points);

}  // namespace simapp::bench
