#include "bench/launch_report.hpp"

#include <string_view>

#include <fmt/core.h>

#include "bench/launch_sizes.hpp"
#include "kernels/backend/error.hpp"

namespace simapp::bench {

namespace {

using Json = nlohmann::ordered_json;

/// One table row: a label and a value in µs (or another unit).
void print_row(std::string_view label, double value, std::string_view unit = "µs") {
  fmt::print("  {:<62} {:>10.3f} {}\n", label, value, unit);
}

/// "13.0" from the runtime's 13000.
std::string cuda_version_string(int version) { return fmt::format("{}.{}", version / 1000, (version % 1000) / 10); }

/// The JSON object of one sweep point.
Json to_json(const SweepPoint& p) {
  return {{"nodes", p.nodes},
          {"kernel", p.kernel},
          {"replays", p.replays},
          {"capture_us", p.capture_us},
          {"capture_us_per_node", p.capture_us / p.nodes},
          {"instantiate_us", p.instantiate_us},
          {"instantiate_us_per_node", p.instantiate_us / p.nodes},
          {"replay_us_per_graph", p.replay_sync_us},
          {"replay_us_per_node", p.replay_sync_us / p.nodes},
          {"replay_b2b_us_per_graph", p.replay_b2b_us},
          {"replay_b2b_us_per_node", p.replay_b2b_us / p.nodes}};
}

/// The JSON object of one kernel's slope fits.
Json to_json(const NodeFit& fit) {
  return {{"replay_us_per_node", fit.replay_us_per_node},
          {"replay_b2b_us_per_node", fit.replay_b2b_us_per_node},
          {"instantiate_us_per_node", fit.instantiate_us_per_node}};
}

}  // namespace

std::ofstream open_json(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw Error(ExitCode::io, path, "cannot open for writing");
  return out;
}

LaunchReport::LaunchReport(const Config& config) : config_(config) {
  doc_["benchmark"] = "simapp-bench launch overhead";
  doc_["config"] = {{"repeat", config.repeat}, {"single_samples", config.single_samples}, {"quick", config.quick}};
}

void LaunchReport::device(const DeviceInfo& info) {
  doc_["device"] = {
      {"name", info.name},
      {"compute_capability", fmt::format("{}.{}", info.major, info.minor)},
      {"sm_count", info.sm_count},
      {"memory_gib", info.memory_gib},
      {"l2_cache_mib", info.l2_cache_mib},
      {"sm_clock_mhz", info.sm_clock_mhz},
      {"memory_clock_mhz", info.memory_clock_mhz},
      {"memory_bus_bits", info.memory_bus_bits},
      {"driver_api_version", cuda_version_string(info.driver_version)},
      {"runtime_version", cuda_version_string(info.runtime_version)},
  };
  fmt::print("simapp-bench: CUDA launch overhead, median of {} runs{}\n", config_.repeat,
             config_.quick ? " (--quick)" : "");
  fmt::print("  device   {} (sm_{}{}), {} SMs, {:.1f} GiB, L2 {} MiB\n", info.name, info.major, info.minor,
             info.sm_count, info.memory_gib, info.l2_cache_mib);
  fmt::print("  clocks   SM {} MHz, memory {} MHz, {}-bit bus\n", info.sm_clock_mhz, info.memory_clock_mhz,
             info.memory_bus_bits);
  fmt::print("  CUDA     driver API {}, runtime {}\n", cuda_version_string(info.driver_version),
             cuda_version_string(info.runtime_version));
}

void LaunchReport::empty_kernel(const EmptyKernelTimes& times) {
  doc_["empty_kernel"] = {{"event_us", times.event_us},
                          {"round_trip_us", times.round_trip_us},
                          {"enqueue_us_per_launch", times.enqueue_us_per_launch},
                          {"samples", times.samples},
                          {"enqueue_batch", kEnqueueBatch}};
  fmt::print("\n1. empty kernel <<<1,1>>>\n");
  print_row("CUDA events around one launch", times.event_us);
  print_row("launch + stream sync round trip (host clock)", times.round_trip_us);
  print_row(fmt::format("host enqueue cost per launch ({} back to back)", kEnqueueBatch), times.enqueue_us_per_launch);
}

void LaunchReport::short_kernel(const ShortKernelTimes& times) {
  fmt::print("\n2. short kernel: y = a*x on {} floats ({} kernels per measurement)\n", kScaleElements,
             kShortKernelBatch);
  print_row("sync after every launch, per kernel", times.sync_each_us_per_kernel);
  print_row(fmt::format("{} launches then one sync, per kernel", kShortKernelGroup), times.group_sync_us_per_kernel);
  print_row(fmt::format("graph of {} kernels, launch + sync per graph, per kernel", kShortKernelGroup),
            times.graph_us_per_kernel);
  print_row(fmt::format("kernel duration (events around a {}-node graph)", kKernelDurationNodes), times.kernel_us);
  print_row("bandwidth at that duration (4 MB working set, fits L2)", times.bandwidth_gbs, "GB/s");
  doc_["short_kernel"] = {{"elements", kScaleElements},
                          {"kernels", kShortKernelBatch},
                          {"group", kShortKernelGroup},
                          {"sync_each_us_per_kernel", times.sync_each_us_per_kernel},
                          {"group_sync_us_per_kernel", times.group_sync_us_per_kernel},
                          {"graph_us_per_kernel", times.graph_us_per_kernel},
                          {"kernel_us", times.kernel_us},
                          {"bandwidth_gbs", times.bandwidth_gbs}};
}

void LaunchReport::sweep_header() {
  doc_["graph_sweep"] = Json::array();
  fmt::print("\n3. graph size sweep: chain of N dependent kernels from stream capture (µs; /node = per node)\n");
  fmt::print("  {:<6} {:>5} {:>10} {:>7} {:>11} {:>7} {:>12} {:>7} {:>12} {:>7}\n", "kernel", "N", "capture", "/node",
             "instantiate", "/node", "launch+sync", "/node", "back-to-back", "/node");
}

void LaunchReport::sweep_point(const SweepPoint& p) {
  doc_["graph_sweep"].push_back(to_json(p));
  const double n = p.nodes;
  fmt::print("  {:<6} {:>5} {:>10.1f} {:>7.3f} {:>11.1f} {:>7.3f} {:>12.2f} {:>7.3f} {:>12.2f} {:>7.3f}\n", p.kernel,
             p.nodes, p.capture_us, p.capture_us / n, p.instantiate_us, p.instantiate_us / n, p.replay_sync_us,
             p.replay_sync_us / n, p.replay_b2b_us, p.replay_b2b_us / n);
}

void LaunchReport::summary(const Summary& floors) {
  fmt::print("\n4. summary (per-node costs: slope between the {}- and {}-node graphs)\n", kFitSmall, kFitLarge);
  print_row("eager host enqueue cost per kernel", floors.eager_enqueue_us_per_kernel);
  print_row("graph cost per node, empty kernels (launch + sync)", floors.fit_empty.replay_us_per_node);
  print_row("graph cost per node, empty kernels (back to back)", floors.fit_empty.replay_b2b_us_per_node);
  print_row("graph cost per node, scale kernels (launch + sync)", floors.fit_scale.replay_us_per_node);
  print_row("instantiate cost per node, empty kernels", floors.fit_empty.instantiate_us_per_node);
  print_row("eager enqueue / graph node (empty)", floors.eager_over_graph_node, "x");
  print_row("short kernel: sync each / graph of 20, per kernel", floors.short_kernel_graph_speedup, "x");
  doc_["summary"] = {{"eager_enqueue_us_per_kernel", floors.eager_enqueue_us_per_kernel},
                     {"graph_node_us_empty", floors.fit_empty.replay_us_per_node},
                     {"graph_node_us_scale", floors.fit_scale.replay_us_per_node},
                     {"eager_over_graph_node", floors.eager_over_graph_node},
                     {"short_kernel_graph_speedup", floors.short_kernel_graph_speedup},
                     {"fit_nodes", {kFitSmall, kFitLarge}},
                     {"fit_empty", to_json(floors.fit_empty)},
                     {"fit_scale", to_json(floors.fit_scale)}};
}

void LaunchReport::grid_barrier_header() {
  doc_["grid_barrier"] = Json::array();
  fmt::print("\n5. grid-wide barrier (cooperative launch, {} threads a block, {} barriers a kernel)\n", kBarrierThreads,
             kBarriersPerKernel);
}

void LaunchReport::grid_barrier(int blocks, double us_per_barrier) {
  print_row(fmt::format("one barrier, {} blocks", blocks), us_per_barrier);
  doc_["grid_barrier"].push_back({{"blocks", blocks}, {"us_per_barrier", us_per_barrier}});
}

void LaunchReport::finish(double wall_s) {
  doc_["wall_s"] = wall_s;
  fmt::print("\nfinished in {:.1f} s\n", wall_s);
}

void LaunchReport::write_json(std::ofstream& out, const std::string& path) const {
  out << doc_.dump(2) << '\n';
  out.close();
  if (!out) throw Error(ExitCode::io, path, "writing failed");
  fmt::print("wrote {}\n", path);
}

}  // namespace simapp::bench
