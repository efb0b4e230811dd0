#include "bench/launch_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include "bench/launch_sizes.hpp"
#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

using Json = nlohmann::ordered_json;

/// Most samples the JSON lists of one number: every repeated measurement's (R <= 100); the
/// single-launch measurements (1a, 1b: config.single_samples) give their count only.
constexpr int kMaxListedSamples = 100;

/// Decimals that show `value` to 4 significant digits, at most 3 and at least 0 (no exponent).
int decimals_for(double value) {
  const double magnitude = std::fabs(value);
  if (!std::isfinite(magnitude) || magnitude == 0.0) return 3;
  return std::clamp(3 - static_cast<int>(std::floor(std::log10(magnitude))), 0, 3);
}

/// `value` with `decimals` decimals; "inf" for an unbounded bound, "?" for none.
std::string number(double value, int decimals) {
  if (std::isnan(value)) return "?";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.{}f}", value, decimals);
}

/// "4.430 (4.390–4.510)": the median and its range, all to the median's decimals.
std::string with_range(const Stats& s) {
  const int decimals = decimals_for(s.median);
  return fmt::format("{} ({}–{})", number(s.median, decimals), number(s.min, decimals), number(s.max, decimals));
}

/// One table row: a label and a value with its range, in µs (or another unit).
void print_row(std::string_view label, const Stats& value, std::string_view unit = "µs") {
  const int decimals = decimals_for(value.median);
  fmt::print("  {:<58} {:>8} ({}–{}) {}\n", label, number(value.median, decimals), number(value.min, decimals),
             number(value.max, decimals), unit);
}

/// "13.0" from the runtime's 13000.
std::string cuda_version_string(int version) { return fmt::format("{}.{}", version / 1000, (version % 1000) / 10); }

/// A number that may be unbounded or undefined: null then.
Json finite_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

/// The statistics of one number. Measured: median, min, max, q1, q3, count and the samples in
/// the order taken (left out above kMaxListedSamples). Derived: median and the bounds min, max.
Json to_json(const Stats& s) {
  Json j = {{"median", finite_or_null(s.median)}, {"min", finite_or_null(s.min)}, {"max", finite_or_null(s.max)}};
  if (s.derived()) return j;
  j["q1"] = finite_or_null(s.q1);
  j["q3"] = finite_or_null(s.q3);
  j["count"] = s.count();
  if (s.count() <= kMaxListedSamples) j["samples"] = s.samples;
  return j;
}

/// Adds `key`: the median (the key the scripts read), and `key`_stats: its statistics.
void put(Json& j, const std::string& key, const Stats& s) {
  j[key] = finite_or_null(s.median);
  j[key + "_stats"] = to_json(s);
}

/// The JSON object of one sweep point; a per-node value's spread is its per-graph one / nodes.
/// A barrier measurement's keys: us_per_barrier (with its _stats) and the two launches' statistics.
void put_barrier_times(Json& j, const BarrierTimes& times) {
  put(j, "us_per_barrier", times.us_per_barrier);
  j["with_barriers_us_stats"] = to_json(times.with_barriers_us);
  j["no_barriers_us_stats"] = to_json(times.no_barriers_us);
}

Json to_json(const SweepPoint& p) {
  Json j = {{"nodes", p.nodes}, {"kernel", p.kernel}, {"replays", p.replays}};
  put(j, "capture_us", p.capture_us);
  j["capture_us_per_node"] = p.capture_us.median / p.nodes;
  put(j, "instantiate_us", p.instantiate_us);
  j["instantiate_us_per_node"] = p.instantiate_us.median / p.nodes;
  put(j, "replay_us_per_graph", p.replay_sync_us);
  j["replay_us_per_node"] = p.replay_sync_us.median / p.nodes;
  put(j, "replay_b2b_us_per_graph", p.replay_b2b_us);
  j["replay_b2b_us_per_node"] = p.replay_b2b_us.median / p.nodes;
  return j;
}

/// The JSON object of one kernel's slope fits.
Json to_json(const NodeFit& fit) {
  Json j = Json::object();
  put(j, "replay_us_per_node", fit.replay_us_per_node);
  put(j, "replay_b2b_us_per_node", fit.replay_b2b_us_per_node);
  put(j, "instantiate_us_per_node", fit.instantiate_us_per_node);
  return j;
}

/// One row of the sweep table: kernel, N and four cells of at most about 20 characters.
void print_sweep_row(std::string_view kernel, std::string_view nodes, const std::string& capture,
                     const std::string& instantiate, const std::string& replay_sync, const std::string& replay_b2b) {
  const std::string row = fmt::format("  {:<6} {:>5}  {:<20} {:<20} {:<20} {}", kernel, nodes, capture, instantiate,
                                      replay_sync, replay_b2b);
  fmt::print("{}\n", row.substr(0, row.find_last_not_of(' ') + 1));
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
  fmt::print("simapp-bench: CUDA launch overhead: median (min–max) of {} runs{}\n", config_.repeat,
             config_.quick ? " (--quick)" : "");
  fmt::print("  device   {} (sm_{}{}), {} SMs, {:.1f} GiB, L2 {} MiB\n", info.name, info.major, info.minor,
             info.sm_count, info.memory_gib, info.l2_cache_mib);
  fmt::print("  clocks   SM {} MHz, memory {} MHz, {}-bit bus\n", info.sm_clock_mhz, info.memory_clock_mhz,
             info.memory_bus_bits);
  fmt::print("  CUDA     driver API {}, runtime {}\n", cuda_version_string(info.driver_version),
             cuda_version_string(info.runtime_version));
}

void LaunchReport::empty_kernel(const EmptyKernelTimes& times) {
  Json j = Json::object();
  put(j, "event_us", times.event_us);
  put(j, "round_trip_us", times.round_trip_us);
  put(j, "enqueue_us_per_launch", times.enqueue_us_per_launch);
  j["samples"] = times.samples;
  j["enqueue_batch"] = kEnqueueBatch;
  doc_["empty_kernel"] = j;
  fmt::print("\n1. empty kernel <<<1,1>>> (1a, 1b: median (min–max) of {} launches)\n", times.samples);
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
  Json j = {{"elements", kScaleElements}, {"kernels", kShortKernelBatch}, {"group", kShortKernelGroup}};
  put(j, "sync_each_us_per_kernel", times.sync_each_us_per_kernel);
  put(j, "group_sync_us_per_kernel", times.group_sync_us_per_kernel);
  put(j, "graph_us_per_kernel", times.graph_us_per_kernel);
  put(j, "kernel_us", times.kernel_us);
  put(j, "bandwidth_gbs", times.bandwidth_gbs);
  doc_["short_kernel"] = j;
}

void LaunchReport::sweep_header() {
  doc_["graph_sweep"] = Json::array();
  fmt::print("\n3. graph size sweep: chain of N dependent kernels from stream capture\n");
  fmt::print("   µs per graph, median (min–max); per node = per graph / N (the JSON has both)\n");
  print_sweep_row("kernel", "N", "capture", "instantiate", "launch+sync", "back-to-back");
}

void LaunchReport::sweep_point(const SweepPoint& p) {
  doc_["graph_sweep"].push_back(to_json(p));
  print_sweep_row(p.kernel, fmt::format("{}", p.nodes), with_range(p.capture_us), with_range(p.instantiate_us),
                  with_range(p.replay_sync_us), with_range(p.replay_b2b_us));
}

void LaunchReport::summary(const Summary& floors) {
  fmt::print("\n4. summary (per-node costs: slope between the {}- and {}-node graphs; in brackets the\n", kFitSmall,
             kFitLarge);
  fmt::print("   bounds that the ranges of the measurements they come from allow)\n");
  print_row("eager host enqueue cost per kernel", floors.eager_enqueue_us_per_kernel);
  print_row("graph cost per node, empty kernels (launch + sync)", floors.fit_empty.replay_us_per_node);
  print_row("graph cost per node, empty kernels (back to back)", floors.fit_empty.replay_b2b_us_per_node);
  print_row("graph cost per node, scale kernels (launch + sync)", floors.fit_scale.replay_us_per_node);
  print_row("instantiate cost per node, empty kernels", floors.fit_empty.instantiate_us_per_node);
  print_row("eager enqueue / graph node (empty)", floors.eager_over_graph_node, "x");
  print_row(fmt::format("short kernel: sync each / graph of {}, per kernel", kShortKernelGroup),
            floors.short_kernel_graph_speedup, "x");
  Json j = Json::object();
  put(j, "eager_enqueue_us_per_kernel", floors.eager_enqueue_us_per_kernel);
  put(j, "graph_node_us_empty", floors.fit_empty.replay_us_per_node);
  put(j, "graph_node_us_scale", floors.fit_scale.replay_us_per_node);
  put(j, "eager_over_graph_node", floors.eager_over_graph_node);
  put(j, "short_kernel_graph_speedup", floors.short_kernel_graph_speedup);
  j["fit_nodes"] = {kFitSmall, kFitLarge};
  j["fit_empty"] = to_json(floors.fit_empty);
  j["fit_scale"] = to_json(floors.fit_scale);
  doc_["summary"] = j;
}

void LaunchReport::grid_barrier_header() {
  doc_["grid_barrier"] = Json::array();
  fmt::print("\n5. grid-wide barrier (cooperative launch, {} threads a block, {} barriers a kernel less none)\n",
             kBarrierThreads, kBarriersPerKernel);
}

void LaunchReport::grid_barrier(const GridBarrierTimes& times) {
  print_row(fmt::format("one barrier, {} blocks", times.blocks), times.us_per_barrier);
  Json j = {{"blocks", times.blocks}};
  put_barrier_times(j, times);
  doc_["grid_barrier"].push_back(j);
}

void LaunchReport::cluster_header(bool available) {
  doc_["cluster_barrier"] = Json::array();
  if (!available) {
    fmt::print("\n6. thread-block clusters: skipped (they need compute capability 9.0 or later)\n");
    return;
  }
  fmt::print("\n6. thread-block clusters ({} threads a block, {} barriers a kernel less none; loads: a chain of {})\n",
             kBarrierThreads, kBarriersPerKernel, kChainLoads);
}

void LaunchReport::cluster_barrier(const ClusterBarrierTimes& times) {
  print_row(fmt::format("one cluster barrier, {} cluster{} of {} blocks", times.shape.clusters,
                        times.shape.clusters == 1 ? "" : "s", times.shape.size),
            times.us_per_barrier);
  Json j = {{"cluster_size", times.shape.size}, {"clusters", times.shape.clusters}};
  put_barrier_times(j, times);
  doc_["cluster_barrier"].push_back(j);
}

void LaunchReport::load_latencies(const LoadLatencies& latencies) {
  print_row("a dependent load, own shared memory", latencies.own_shared_ns, "ns");
  print_row("a dependent load, another block's shared memory", latencies.other_block_shared_ns, "ns");
  print_row("a dependent load, L2 (global, around L1)", latencies.l2_ns, "ns");
  Json j = Json::object();
  put(j, "own_shared_ns", latencies.own_shared_ns);
  put(j, "other_block_shared_ns", latencies.other_block_shared_ns);
  put(j, "l2_ns", latencies.l2_ns);
  doc_["load_latency"] = j;
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
