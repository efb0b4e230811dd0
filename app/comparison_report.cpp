#include "app/comparison_report.hpp"

#include <cmath>
#include <optional>
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

/// "12.34", or "-" when there is no value.
std::string ratio(const std::optional<double>& value) { return value ? fmt::format("{:.2f}", *value) : "-"; }

/// A captured-graph figure, or "-" for a mode that captures nothing.
std::string if_captured(const ModeTiming& timing, const std::string& text) {
  return timing.stats.captures > 0 ? text : "-";
}

std::string describe_break_even(const std::optional<double>& steps) {
  if (!std::isfinite(*steps)) return "never (not faster than eager launching)";
  return fmt::format("{:.0f} steps repay capture + instantiation", std::ceil(*steps));
}

}  // namespace

void print_comparison(std::FILE* out, const ModeComparison& comparison) {
  fmt::print(out, "\n{:<13} {:>13} {:>13} {:>14} {:>7} {:>16} {:>11} {:>15} {:>13} {:>8}\n", "mode", "time/step us",
             "kernels/step", "launches/step", "graphs", "nodes/graph", "capture ms", "instantiate ms", "x eager_sync",
             "x eager");
  for (const ModeTiming& timing : comparison.modes)
    fmt::print(out, "{:<13} {:>13.2f} {:>13.4g} {:>14.4g} {:>7} {:>16} {:>11} {:>15} {:>13} {:>8}\n",
               to_string(timing.mode), timing.seconds_per_step() * 1e6, timing.kernels_per_step,
               timing.launches_per_step, if_captured(timing, std::to_string(timing.stats.nodes_per_graph.size())),
               if_captured(timing, graph_sizes(timing.stats)),
               if_captured(timing, fmt::format("{:.3f}", timing.stats.capture_seconds * 1e3)),
               if_captured(timing, fmt::format("{:.3f}", timing.stats.instantiate_seconds * 1e3)),
               ratio(speedup(comparison, timing.mode, ExecutionMode::eager_sync)),
               ratio(speedup(comparison, timing.mode, ExecutionMode::eager)));
  for (const SkippedMode& skipped : comparison.skipped)
    fmt::print(out, "{:<13} skipped: {}\n", to_string(skipped.mode), skipped.reason);
  fmt::print(out, "\nsteps per graph: {}, warm-up: {} steps per mode\n", comparison.steps_per_graph,
             comparison.warmup_steps);
  for (const ModeTiming& timing : comparison.modes)
    if (const std::optional<double> steps = break_even_steps(comparison, timing.mode))
      fmt::print(out, "{} break-even: {}\n", to_string(timing.mode), describe_break_even(steps));
  fmt::print(out, "final states: {}\n",
             comparison.identical ? "bit-identical in every mode" : "DIFFER: " + comparison.difference);
  std::fflush(out);
}

}  // namespace simapp::app
