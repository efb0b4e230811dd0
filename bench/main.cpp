/// simapp-bench: measures CUDA launch overhead (eager launches, stream sync round trips,
/// CUDA-graph replay, grid-wide and cluster barriers, load latencies) on the current device; docs/benchmarks.md
/// explains every number.
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <vector>

#include <fmt/core.h>

#include "bench/command_line.hpp"
#include "bench/device_info.hpp"
#include "bench/host_timing.hpp"
#include "bench/launch_measurements.hpp"
#include "bench/launch_report.hpp"
#include "bench/launch_results.hpp"
#include "bench/launch_sizes.hpp"
#include "bench/launch_summary.hpp"
#include "bench/watchdog.hpp"
#include "foundation/error.hpp"

namespace {

using namespace simapp::bench;
using simapp::Error;
using simapp::ExitCode;

constexpr std::chrono::seconds kWatchdogBase{60};      ///< fixed part of the run-time limit
constexpr std::chrono::seconds kWatchdogPerRepeat{5};  ///< added per repetition

/// 3. The sweep over graph sizes for `kernel`, each row reported as it is measured; appends to `points`.
void sweep(const LaunchBench& bench, KernelKind kernel, const std::vector<int>& sizes, LaunchReport& report,
           std::vector<SweepPoint>& points) {
  for (const int nodes : sizes) {
    points.push_back(bench.graph(kernel, nodes));
    report.sweep_point(points.back());
  }
}

/// Runs every measurement, each reported as it finishes.
void run_all(const Config& config, LaunchReport& report) {
  report.device(describe_device());
  const LaunchBench bench(config);
  bench.warm_up();
  bench.verify_scale_kernel();
  const EmptyKernelTimes empty_kernel = bench.empty_kernel();
  report.empty_kernel(empty_kernel);
  const ShortKernelTimes short_kernel = bench.short_kernel();
  report.short_kernel(short_kernel);
  report.sweep_header();
  std::vector<SweepPoint> points;
  sweep(bench, KernelKind::empty, kEmptySweep, report, points);
  sweep(bench, KernelKind::scale, kScaleSweep, report, points);
  report.summary(summarize(empty_kernel, short_kernel, points));
  const std::vector<int> grids = bench.grid_barrier_blocks();
  report.grid_barrier_header();
  for (const int blocks : grids) report.grid_barrier(bench.grid_barrier(blocks));
  const bool clusters = bench.has_clusters();
  report.cluster_header(clusters);
  if (!clusters) return;
  for (const ClusterShape& shape : bench.cluster_shapes()) report.cluster_barrier(bench.cluster_barrier(shape));
  report.load_latencies(bench.load_latencies());
}

/// Parses the command line, runs, writes the JSON; returns the exit code.
int run(int argc, char** argv) {
  const Config config = parse_args(argc, argv);
  if (config.help) {
    print_usage();
    return 0;
  }
  const Watchdog watchdog(kWatchdogBase + kWatchdogPerRepeat * config.repeat);
  require_device();
  std::ofstream json_out;
  if (!config.json_path.empty()) json_out = open_json(config.json_path);
  const Clock::time_point start = Clock::now();
  LaunchReport report(config);
  run_all(config, report);
  report.finish(elapsed_us(start) * 1e-6);
  if (!config.json_path.empty()) report.write_json(json_out, config.json_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Error& e) {
    if (e.where().empty())
      fmt::print(stderr, "simapp-bench: error: {}\n", e.what());
    else
      fmt::print(stderr, "simapp-bench: error: {}: {}\n", e.where(), e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "simapp-bench: error: internal: {}\n", e.what());
    return static_cast<int>(ExitCode::internal);
  }
}
