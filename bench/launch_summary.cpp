#include "bench/launch_summary.hpp"

#include <string_view>

#include <fmt/core.h>

#include "bench/launch_sizes.hpp"
#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

/// The sweep point of `kernel` with `nodes` nodes.
const SweepPoint& find_point(const std::vector<SweepPoint>& points, std::string_view kernel, int nodes) {
  for (const SweepPoint& p : points)
    if (p.kernel == kernel && p.nodes == nodes) return p;
  throw Error(ExitCode::internal, "summary", fmt::format("no {}-node '{}' graph in the sweep", nodes, kernel));
}

/// Per-node cost: slope of `time` between the kFitSmall- and kFitLarge-node graphs of `kernel`,
/// bounded by the two measurements' ranges.
template <class Time>
Stats node_slope(const std::vector<SweepPoint>& points, std::string_view kernel, Time time) {
  const SweepPoint& smaller = find_point(points, kernel, kFitSmall);
  const SweepPoint& larger = find_point(points, kernel, kFitLarge);
  return difference_over(time(larger), time(smaller), kFitLarge - kFitSmall);
}

/// Slope fits of one kernel's sweep.
NodeFit node_fits(const std::vector<SweepPoint>& points, std::string_view kernel) {
  const auto sync = [](const SweepPoint& p) -> const Stats& { return p.replay_sync_us; };
  const auto b2b = [](const SweepPoint& p) -> const Stats& { return p.replay_b2b_us; };
  const auto inst = [](const SweepPoint& p) -> const Stats& { return p.instantiate_us; };
  return {node_slope(points, kernel, sync), node_slope(points, kernel, b2b), node_slope(points, kernel, inst)};
}

}  // namespace

Summary summarize(const EmptyKernelTimes& empty_kernel, const ShortKernelTimes& short_kernel,
                  const std::vector<SweepPoint>& points) {
  Summary summary;
  summary.fit_empty = node_fits(points, "empty");
  summary.fit_scale = node_fits(points, "scale");
  summary.eager_enqueue_us_per_kernel = empty_kernel.enqueue_us_per_launch;
  summary.eager_over_graph_node = ratio(summary.eager_enqueue_us_per_kernel, summary.fit_empty.replay_us_per_node);
  summary.short_kernel_graph_speedup = ratio(short_kernel.sync_each_us_per_kernel, short_kernel.graph_us_per_kernel);
  return summary;
}

}  // namespace simapp::bench
