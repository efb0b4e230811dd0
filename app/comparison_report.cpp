#include "app/comparison_report.hpp"

#include <cmath>
#include <string>

#include <fmt/core.h>

namespace simapp::app {

namespace {

std::string graph_sizes(const ExecutorStats& stats) {
  std::string sizes;
  for (std::size_t nodes : stats.nodes_per_graph) {
    if (!sizes.empty()) sizes += ',';
    sizes += std::to_string(nodes);
  }
  return sizes.empty() ? "-" : sizes;
}

}  // namespace

void print_comparison(std::FILE* out, const ModeComparison& comparison) {
  fmt::print(out, "\n{:<13} {:>13} {:>13} {:>14} {:>7} {:>16} {:>11} {:>15} {:>15} {:>10}\n", "mode",
             "time/step us", "kernels/step", "launches/step", "graphs", "nodes/graph", "capture ms",
             "instantiate ms", "x eager_sync", "x eager");
  for (const ModeTiming& timing : comparison.modes) {
    const bool graph = timing.mode == ExecutionMode::graph;
    fmt::print(out, "{:<13} {:>13.2f} {:>13.0f} {:>14.3f} {:>7} {:>16} {:>11} {:>15} {:>15.2f} {:>10.2f}\n",
               to_string(timing.mode), timing.seconds_per_step() * 1e6, timing.kernels_per_step,
               timing.launches_per_step, graph ? std::to_string(timing.stats.nodes_per_graph.size()) : "-",
               graph ? graph_sizes(timing.stats) : "-",
               graph ? fmt::format("{:.3f}", timing.stats.capture_seconds * 1e3) : "-",
               graph ? fmt::format("{:.3f}", timing.stats.instantiate_seconds * 1e3) : "-",
               speedup(comparison, timing.mode, ExecutionMode::eager_sync),
               speedup(comparison, timing.mode, ExecutionMode::eager));
  }
  const double replays = break_even_replays(comparison);
  fmt::print(out, "\nsteps per graph: {}, warm-up: {} steps per mode\n", comparison.steps_per_graph,
             comparison.warmup_steps);
  fmt::print(out, "graph break-even: {}\n",
             std::isfinite(replays) ? fmt::format("{:.1f} replays repay capture + instantiation", replays)
                                    : std::string("never (graph replay is not faster than eager launching)"));
  fmt::print(out, "final states: {}\n",
             comparison.identical ? "bit-identical in every mode" : "DIFFER: " + comparison.difference);
  std::fflush(out);
}

}  // namespace simapp::app
