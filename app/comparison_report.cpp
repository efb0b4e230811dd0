#include "app/comparison_report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

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

/// "1.31 (1.28-1.34)": a ratio of medians with its range; "-" when there is none.
std::string ranged_ratio(const std::optional<RangedValue>& value) {
  return value ? fmt::format("{:.2f} ({:.2f}-{:.2f})", value->median, value->low, value->high) : "-";
}

/// Steps, or "never" where the saving per step is none.
std::string steps_text(double steps) {
  return std::isfinite(steps) ? fmt::format("{:.0f}", std::ceil(steps)) : "never";
}

void print_times(std::FILE* out, const ModeComparison& comparison) {
  fmt::print(out, "\n{:<13} {:>10} {:>21} {:>7} {:>8} {:>9} {:>17} {:>17}\n", "mode", "us/step", "(min-max)", "spread",
             "kernels", "launches", "x eager_sync", "x eager");
  for (const ModeTiming& timing : comparison.modes) {
    const SampleSummary& us = timing.per_step;
    fmt::print(out, "{:<13} {:>10.2f} {:>21} {:>6.1f}% {:>8.4g} {:>9.4g} {:>17} {:>17}\n", to_string(timing.mode),
               us.median * 1e6, fmt::format("({:.2f}-{:.2f})", us.min * 1e6, us.max * 1e6),
               100.0 * us.relative_spread(), timing.kernels_per_step, timing.launches_per_step,
               ranged_ratio(speedup(comparison, timing.mode, ExecutionMode::eager_sync)),
               ranged_ratio(speedup(comparison, timing.mode, ExecutionMode::eager)));
  }
  for (const SkippedMode& skipped : comparison.skipped)
    fmt::print(out, "{:<13} skipped: {}\n", to_string(skipped.mode), skipped.reason);
}

void print_graphs(std::FILE* out, const ModeComparison& comparison) {
  bool header = false;
  for (const ModeTiming& timing : comparison.modes) {
    if (timing.stats.captures == 0) continue;
    if (!header)
      fmt::print(out, "\n{:<13} {:>6} {:>22} {:>11} {:>15}  {}\n", "graphs of", "graphs", "nodes/graph", "capture ms",
                 "instantiate ms", "break-even steps (range)");
    header = true;
    const std::optional<RangedValue> break_even = break_even_steps(comparison, timing.mode);
    fmt::print(out, "{:<13} {:>6} {:>22} {:>11.3f} {:>15.3f}  {}\n", to_string(timing.mode),
               timing.stats.nodes_per_graph.size(), graph_sizes(timing.stats), timing.stats.capture_seconds * 1e3,
               timing.stats.instantiate_seconds * 1e3,
               break_even ? fmt::format("{} ({}-{})", steps_text(break_even->median), steps_text(break_even->low),
                                        steps_text(break_even->high))
                          : "- (eager not timed)");
  }
}

/// "graph and graph_loop", "eager, eager_streams and graph": the pairs of modes whose ranges
/// overlap, grouped with the first of each group.
void print_noise(std::FILE* out, const ModeComparison& comparison) {
  std::vector<std::string> groups;
  std::vector<ExecutionMode> named;
  for (const ModeTiming& timing : comparison.modes) {
    if (std::ranges::find(named, timing.mode) != named.end()) continue;
    const std::vector<ExecutionMode> close = within_noise_of(comparison, timing.mode);
    if (close.empty()) continue;
    std::string group(to_string(timing.mode));
    for (std::size_t n = 0; n < close.size(); ++n) {
      group += (n + 1 == close.size() ? " and " : ", ") + std::string(to_string(close[n]));
      named.push_back(close[n]);
    }
    groups.push_back(group);
  }
  for (const std::string& group : groups) fmt::print(out, "within noise (their ranges overlap): {}\n", group);
}

}  // namespace

void print_comparison(std::FILE* out, const ModeComparison& comparison) {
  print_times(out, comparison);
  print_graphs(out, comparison);
  fmt::print(out, "\n{} rounds, each timing every mode once, in turn: medians, and the range of the samples\n",
             comparison.rounds);
  fmt::print(out, "steps per graph: {}, warm-up: {} steps before each timed run\n", comparison.steps_per_graph,
             comparison.warmup_steps);
  print_noise(out, comparison);
  fmt::print(out, "final states: {}\n",
             comparison.identical ? "bit-identical in every mode and run" : "DIFFER: " + comparison.difference);
  std::fflush(out);
}

}  // namespace simapp::app
