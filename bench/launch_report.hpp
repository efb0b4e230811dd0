#pragma once
/// What simapp-bench reports: a table per measurement on stdout, printed as the measurement
/// finishes, each number a median with its range, and all the numbers with their statistics as
/// one JSON document (docs/benchmarks.md lists its keys).
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/command_line.hpp"
#include "bench/device_info.hpp"
#include "bench/launch_results.hpp"
#include "bench/launch_summary.hpp"

namespace simapp::bench {

/// Opens the JSON output now, so a bad path fails before the measurements rather than after.
std::ofstream open_json(const std::string& path);

/// Prints each section as it comes, in the order of the run, and adds it to the JSON document.
class LaunchReport {
 public:
  /// Starts the document with the benchmark's name and `config`.
  explicit LaunchReport(const Config& config);

  /// Prints the header: the settings and `info`.
  void device(const DeviceInfo& info);
  void empty_kernel(const EmptyKernelTimes& times);
  void short_kernel(const ShortKernelTimes& times);
  /// Prints the sweep table's header; sweep_point() adds its rows.
  void sweep_header();
  void sweep_point(const SweepPoint& point);
  void summary(const Summary& floors);
  /// Prints the grid-barrier table's header; grid_barrier() adds its rows.
  void grid_barrier_header();
  void grid_barrier(const GridBarrierTimes& times);
  /// Prints the cluster section's header, or why it is skipped (`available` false: no clusters on
  /// this device); cluster_barrier() and load_latencies() add its rows.
  void cluster_header(bool available);
  void cluster_barrier(const ClusterBarrierTimes& times);
  void load_latencies(const LoadLatencies& latencies);
  /// Prints the seconds the run took.
  void finish(double wall_s);

  /// Writes the document to `out`, opened by open_json(`path`), and says so.
  void write_json(std::ofstream& out, const std::string& path) const;

 private:
  Config config_;
  nlohmann::ordered_json doc_;
};

}  // namespace simapp::bench
