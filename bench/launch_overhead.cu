/// simapp-bench: measures CUDA launch overhead (eager launches, stream sync round trips,
/// CUDA-graph replay and grid-wide barriers) on the current device; docs/benchmarks.md explains every number.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "kernels/backend/cuda_check.hpp"
#include "kernels/backend/error.hpp"

/// Like SIMAPP_CUDA_CHECK, but builds the message only when the call failed: timed loops
/// check every call, and a std::string per call would show up in sub-microsecond numbers.
#define BENCH_CUDA_CHECK(expr)                                                                        \
  do {                                                                                                \
    const cudaError_t bench_status_ = (expr);                                                         \
    if (bench_status_ != cudaSuccess)                                                                 \
      ::simapp::check_cuda(bench_status_, #expr " at " __FILE__ ":" SIMAPP_CUDA_STRINGIFY(__LINE__)); \
  } while (0)

namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
using simapp::Error;
using simapp::ExitCode;

constexpr int kScaleElements = 500'000;  ///< the "short kernel": y = a*x on 500k floats
constexpr float kScaleFactor = 2.0F;
constexpr int kScaleBlock = 256;
constexpr int kEnqueueBatch = 10'000;        ///< back-to-back launches timed for the enqueue cost
constexpr int kShortKernelBatch = 1'000;     ///< kernels per short-kernel measurement
constexpr int kShortKernelGroup = 20;        ///< kernels per sync (or per graph) in the grouped variants
constexpr int kKernelDurationNodes = 1'000;  ///< nodes of the graph that times the scale kernel itself
constexpr int kReplayNodeBudget = 20'000;    ///< nodes replayed per sweep measurement (sets the replay count)
constexpr int kMaxRepeat = 100;
constexpr std::chrono::seconds kWatchdogBase{60};      ///< fixed part of the run-time limit
constexpr std::chrono::seconds kWatchdogPerRepeat{5};  ///< added per repetition
const std::vector<int> kEmptySweep = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
const std::vector<int> kScaleSweep = {10, 100, 1000, 5000};
constexpr int kFitSmall = 1'000;  ///< per-node costs are the slope between these two graph sizes,
constexpr int kFitLarge = 5'000;  ///< which both sweeps contain

// ---------------------------------------------------------------------------------------
// Command line

/// What the command line asked for.
struct Config {
  std::string json_path;      ///< empty: no JSON file
  int repeat = 11;            ///< R: repetitions of each measurement, the median is reported
  int single_samples = 1000;  ///< samples of the single-launch measurements
  bool quick = false;
  bool help = false;
};

/// A command-line mistake: reported as one line, exit code 2.
Error usage_error(const std::string& what) { return Error(ExitCode::bad_input, "", what); }

/// Parses `text` as the value of --repeat.
int parse_repeat(std::string_view text) {
  int value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxRepeat)
    throw usage_error(fmt::format("--repeat needs an integer from 1 to {}, got '{}'", kMaxRepeat, text));
  return value;
}

/// Reads `simapp-bench [--json PATH] [--repeat R] [--quick] [--help]`.
Config parse_args(int argc, char** argv) {
  Config config;
  int repeat = 0;  // 0: not given
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--quick") {
      config.quick = true;
    } else if (arg == "--help" || arg == "-h") {
      config.help = true;
    } else if (arg == "--json" || arg == "--repeat") {
      if (!has_value) throw usage_error(fmt::format("{} needs a value", arg));
      const std::string_view value = argv[++i];
      if (arg == "--json")
        config.json_path = value;
      else
        repeat = parse_repeat(value);
    } else {
      throw usage_error(fmt::format("unknown argument '{}' (try --help)", arg));
    }
  }
  if (config.quick) {
    config.repeat = 3;
    config.single_samples = 200;
  }
  if (repeat != 0) config.repeat = repeat;
  return config;
}

/// Prints the command-line help.
void print_usage() {
  fmt::print(
      "usage: simapp-bench [--json PATH] [--repeat R] [--quick]\n"
      "Measures CUDA launch overhead and CUDA-graph replay cost (see docs/benchmarks.md).\n"
      "  --json PATH   also write all results as one JSON document to PATH\n"
      "  --repeat R    repetitions of each measurement, median reported (1..{}, default 11)\n"
      "  --quick       fewer repetitions (3) and samples: a smoke test\n",
      kMaxRepeat);
}

// ---------------------------------------------------------------------------------------
// Safety: a hung GPU or driver must not hang the caller

/// Ends the process with an error when the benchmark outlives `limit`.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit) : thread_([this, limit] { watch(limit); }) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  void watch(std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, limit, [this] { return done_; })) return;
    fmt::print(stderr, "simapp-bench: error: watchdog: still running after {} s, giving up\n", limit.count());
    std::fflush(stderr);
    std::_Exit(static_cast<int>(ExitCode::internal));
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

// ---------------------------------------------------------------------------------------
// RAII owners of CUDA runtime objects

/// Owns one CUDA runtime handle; `destroy` releases it (its status is ignored: a destructor
/// cannot report it, and the process is then either done or already failing).
template <class Handle, cudaError_t (*destroy)(Handle)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Owned() { reset(); }

  Handle get() const { return handle_; }
  void reset() {
    if (handle_ != nullptr) static_cast<void>(destroy(std::exchange(handle_, nullptr)));
  }

 private:
  Handle handle_ = nullptr;
};

using Stream = Owned<cudaStream_t, cudaStreamDestroy>;
using Event = Owned<cudaEvent_t, cudaEventDestroy>;
using Graph = Owned<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = Owned<cudaGraphExec_t, cudaGraphExecDestroy>;
using DevicePointer = Owned<void*, cudaFree>;

/// A new non-blocking stream (no implicit sync with the legacy default stream).
Stream make_stream() {
  cudaStream_t stream = nullptr;
  BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return Stream(stream);
}

/// A new timing event.
Event make_event() {
  cudaEvent_t event = nullptr;
  BENCH_CUDA_CHECK(cudaEventCreate(&event));
  return Event(event);
}

/// Device memory for `count` floats.
DevicePointer make_device_floats(int count) {
  void* data = nullptr;
  BENCH_CUDA_CHECK(cudaMalloc(&data, sizeof(float) * static_cast<std::size_t>(count)));
  return DevicePointer(data);
}

// ---------------------------------------------------------------------------------------
// Kernels and what launches them

__global__ void empty_kernel() {}

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned>(n)) y[i] = a * x[i];
}

/// `barriers` grid-wide barriers, nothing else: the cost of a barrier between the stages of a
/// persistent kernel.
__global__ void grid_barrier_kernel(int barriers) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (int b = 0; b < barriers; ++b) grid.sync();
}

enum class KernelKind { empty, scale };

/// One of the two benchmark kernels with its arguments.
struct Workload {
  KernelKind kind = KernelKind::empty;
  const float* x = nullptr;
  float* y = nullptr;

  const char* name() const { return kind == KernelKind::empty ? "empty" : "scale"; }

  /// Enqueues the kernel `count` times back to back on `stream`; a failed launch is reported after the loop.
  void enqueue(cudaStream_t stream, int count) const {
    if (kind == KernelKind::empty) {
      for (int i = 0; i < count; ++i) empty_kernel<<<1, 1, 0, stream>>>();
    } else {
      const int blocks = (kScaleElements + kScaleBlock - 1) / kScaleBlock;
      for (int i = 0; i < count; ++i)
        scale_kernel<<<blocks, kScaleBlock, 0, stream>>>(x, y, kScaleFactor, kScaleElements);
    }
    BENCH_CUDA_CHECK(cudaGetLastError());  // a failed launch stays the last error until read
  }
};

/// Everything the measurements share.
struct Bench {
  Config config;
  Stream stream = make_stream();
  Event start = make_event();
  Event stop = make_event();
  DevicePointer x = make_device_floats(kScaleElements);
  DevicePointer y = make_device_floats(kScaleElements);

  cudaStream_t s() const { return stream.get(); }
  Workload empty() const { return Workload{KernelKind::empty}; }
  Workload scale() const {
    return Workload{KernelKind::scale, static_cast<const float*>(x.get()), static_cast<float*>(y.get())};
  }
  void sync() const { BENCH_CUDA_CHECK(cudaStreamSynchronize(s())); }
};

// ---------------------------------------------------------------------------------------
// Harness

/// Microseconds since `start` on the host clock.
double elapsed_us(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// Host time of `body()` in microseconds.
template <class Body>
double host_us(Body&& body) {
  const Clock::time_point start = Clock::now();
  body();
  return elapsed_us(start);
}

/// GPU time in microseconds between events recorded around `enqueue()` on the bench stream.
template <class Enqueue>
double gpu_us(const Bench& bench, Enqueue&& enqueue) {
  BENCH_CUDA_CHECK(cudaEventRecord(bench.start.get(), bench.s()));
  enqueue();
  BENCH_CUDA_CHECK(cudaEventRecord(bench.stop.get(), bench.s()));
  BENCH_CUDA_CHECK(cudaEventSynchronize(bench.stop.get()));
  float ms = 0.0F;
  BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, bench.start.get(), bench.stop.get()));
  return 1000.0 * static_cast<double>(ms);
}

/// Median of `samples`.
double median(std::vector<double> samples) {
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid), samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid)));
}

/// Median of `count` results of `measure()`, after one discarded warm-up run.
template <class Measure>
double median_of(int count, Measure&& measure) {
  static_cast<void>(measure());
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) samples.push_back(measure());
  return median(std::move(samples));
}

/// Captures `count` launches of `work` into a new graph: a chain, each node after the last.
Graph capture(cudaStream_t stream, const Workload& work, int count) {
  BENCH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    work.enqueue(stream, count);
  } catch (...) {
    static_cast<void>(cudaStreamEndCapture(stream, &graph));  // leave the stream usable
    Graph discarded(graph);
    throw;
  }
  BENCH_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return Graph(graph);
}

/// An executable graph of `graph` (flags 0).
GraphExec instantiate(const Graph& graph) {
  cudaGraphExec_t exec = nullptr;
  BENCH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

/// Launches `exec` `count` times on `stream`, each launch followed by a stream sync when `sync_each`.
void replay(cudaStream_t stream, const GraphExec& exec, int count, bool sync_each) {
  for (int i = 0; i < count; ++i) {
    BENCH_CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
    if (sync_each) BENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

// ---------------------------------------------------------------------------------------
// Output helpers

/// One table row: a label and a value in µs (or another unit).
void print_row(std::string_view label, double value, std::string_view unit = "µs") {
  fmt::print("  {:<62} {:>10.3f} {}\n", label, value, unit);
}

/// "13.0" from the runtime's 13000.
std::string cuda_version_string(int version) { return fmt::format("{}.{}", version / 1000, (version % 1000) / 10); }

// ---------------------------------------------------------------------------------------
// Device

/// Throws (exit code 2) when no CUDA device can be used.
void require_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    throw Error(ExitCode::bad_input, "", fmt::format("no CUDA device visible ({})", cudaGetErrorString(status)));
  if (count == 0) throw Error(ExitCode::bad_input, "", "no CUDA device visible");
}

/// One integer attribute of device 0.
int device_attribute(cudaDeviceAttr attribute) {
  int value = 0;
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, 0));
  return value;
}

/// Prints the header and returns the device description.
Json describe_device(const Config& config) {
  cudaDeviceProp prop{};
  BENCH_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  int runtime = 0;
  BENCH_CUDA_CHECK(cudaDriverGetVersion(&driver));
  BENCH_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  const Json device = {
      {"name", prop.name},
      {"compute_capability", fmt::format("{}.{}", prop.major, prop.minor)},
      {"sm_count", prop.multiProcessorCount},
      {"memory_gib", static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0)},
      {"l2_cache_mib", prop.l2CacheSize / (1024 * 1024)},
      {"sm_clock_mhz", device_attribute(cudaDevAttrClockRate) / 1000},
      {"memory_clock_mhz", device_attribute(cudaDevAttrMemoryClockRate) / 1000},
      {"memory_bus_bits", prop.memoryBusWidth},
      {"driver_api_version", cuda_version_string(driver)},
      {"runtime_version", cuda_version_string(runtime)},
  };
  fmt::print("simapp-bench: CUDA launch overhead, median of {} runs{}\n", config.repeat,
             config.quick ? " (--quick)" : "");
  fmt::print("  device   {} (sm_{}{}), {} SMs, {:.1f} GiB, L2 {} MiB\n", prop.name, prop.major, prop.minor,
             prop.multiProcessorCount, device["memory_gib"].get<double>(), device["l2_cache_mib"].get<int>());
  fmt::print("  clocks   SM {} MHz, memory {} MHz, {}-bit bus\n", device["sm_clock_mhz"].get<int>(),
             device["memory_clock_mhz"].get<int>(), prop.memoryBusWidth);
  fmt::print("  CUDA     driver API {}, runtime {}\n", cuda_version_string(driver), cuda_version_string(runtime));
  return device;
}

// ---------------------------------------------------------------------------------------
// Measurements

/// Launches both kernels and a graph until lazy module loading and clocks have settled.
void warm_up(const Bench& bench) {
  for (int round = 0; round < 10; ++round) {
    bench.empty().enqueue(bench.s(), 200);
    bench.scale().enqueue(bench.s(), 20);
    bench.sync();
  }
  const GraphExec exec = instantiate(capture(bench.s(), bench.empty(), 10));
  replay(bench.s(), exec, 10, true);
}

/// Checks that the scale kernel writes y = a*x (guards against numbers of a kernel that never ran).
void verify_scale_kernel(const Bench& bench) {
  std::vector<float> x(kScaleElements);
  for (int i = 0; i < kScaleElements; ++i) x[static_cast<std::size_t>(i)] = 0.25F * static_cast<float>(i % 4096);
  const std::size_t bytes = sizeof(float) * x.size();
  BENCH_CUDA_CHECK(cudaMemcpy(bench.x.get(), x.data(), bytes, cudaMemcpyHostToDevice));
  BENCH_CUDA_CHECK(cudaMemset(bench.y.get(), 0, bytes));
  bench.scale().enqueue(bench.s(), 1);
  bench.sync();
  std::vector<float> y(x.size());
  BENCH_CUDA_CHECK(cudaMemcpy(y.data(), bench.y.get(), bytes, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (y[i] != kScaleFactor * x[i])
      throw Error(ExitCode::internal, "verify",
                  fmt::format("scale kernel wrote y[{}] = {}, expected {}", i, y[i], kScaleFactor * x[i]));
}

/// 1. Empty kernel: event time, sync round trip, host enqueue cost.
Json measure_empty_kernel(const Bench& bench) {
  const int samples = bench.config.single_samples;
  const Workload work = bench.empty();
  std::vector<double> event_us;
  std::vector<double> round_trip_us;
  for (int i = 0; i < samples; ++i) event_us.push_back(gpu_us(bench, [&] { work.enqueue(bench.s(), 1); }));
  for (int i = 0; i < samples; ++i)
    round_trip_us.push_back(host_us([&] {
      work.enqueue(bench.s(), 1);
      bench.sync();
    }));
  const double enqueue_us = median_of(bench.config.repeat, [&] {
    const double us = host_us([&] { work.enqueue(bench.s(), kEnqueueBatch); });
    bench.sync();
    return us / kEnqueueBatch;
  });
  const Json result = {{"event_us", median(event_us)},
                       {"round_trip_us", median(round_trip_us)},
                       {"enqueue_us_per_launch", enqueue_us},
                       {"samples", samples},
                       {"enqueue_batch", kEnqueueBatch}};
  fmt::print("\n1. empty kernel <<<1,1>>>\n");
  print_row("CUDA events around one launch", result["event_us"].get<double>());
  print_row("launch + stream sync round trip (host clock)", result["round_trip_us"].get<double>());
  print_row(fmt::format("host enqueue cost per launch ({} back to back)", kEnqueueBatch), enqueue_us);
  return result;
}

/// Host µs per kernel of `kShortKernelBatch` scale kernels, synced every `group` kernels.
double short_kernel_eager_us(const Bench& bench, int group) {
  const auto run_batch = [&] {
    for (int done = 0; done < kShortKernelBatch; done += group) {
      bench.scale().enqueue(bench.s(), group);
      bench.sync();
    }
  };
  return median_of(bench.config.repeat, [&] { return host_us(run_batch) / kShortKernelBatch; });
}

/// Host µs per kernel of `kShortKernelBatch` scale kernels run as graphs of `kShortKernelGroup`, synced per graph.
double short_kernel_graph_us(const Bench& bench) {
  const GraphExec exec = instantiate(capture(bench.s(), bench.scale(), kShortKernelGroup));
  return median_of(bench.config.repeat, [&] {
    return host_us([&] { replay(bench.s(), exec, kShortKernelBatch / kShortKernelGroup, true); }) / kShortKernelBatch;
  });
}

/// GPU µs of one scale kernel: events around a graph of `kKernelDurationNodes` of them.
double scale_kernel_duration_us(const Bench& bench) {
  const GraphExec exec = instantiate(capture(bench.s(), bench.scale(), kKernelDurationNodes));
  return median_of(bench.config.repeat,
                   [&] { return gpu_us(bench, [&] { replay(bench.s(), exec, 1, false); }) / kKernelDurationNodes; });
}

/// 2. Short kernel (scale 500k floats): eager with and without overlap, as a graph, and its own duration.
Json measure_short_kernel(const Bench& bench) {
  const double sync_each = short_kernel_eager_us(bench, 1);
  const double group_sync = short_kernel_eager_us(bench, kShortKernelGroup);
  const double graph = short_kernel_graph_us(bench);
  const double kernel = scale_kernel_duration_us(bench);
  const double bytes = 2.0 * sizeof(float) * kScaleElements;  // read x, write y
  const double bandwidth_gbs = bytes / (kernel * 1e-6) / 1e9;
  fmt::print("\n2. short kernel: y = a*x on {} floats ({} kernels per measurement)\n", kScaleElements,
             kShortKernelBatch);
  print_row("sync after every launch, per kernel", sync_each);
  print_row(fmt::format("{} launches then one sync, per kernel", kShortKernelGroup), group_sync);
  print_row(fmt::format("graph of {} kernels, launch + sync per graph, per kernel", kShortKernelGroup), graph);
  print_row(fmt::format("kernel duration (events around a {}-node graph)", kKernelDurationNodes), kernel);
  print_row("bandwidth at that duration (4 MB working set, fits L2)", bandwidth_gbs, "GB/s");
  return {{"elements", kScaleElements},
          {"kernels", kShortKernelBatch},
          {"group", kShortKernelGroup},
          {"sync_each_us_per_kernel", sync_each},
          {"group_sync_us_per_kernel", group_sync},
          {"graph_us_per_kernel", graph},
          {"kernel_us", kernel},
          {"bandwidth_gbs", bandwidth_gbs}};
}

/// One graph size of the sweep; all times in µs (host clock).
struct SweepPoint {
  std::string kernel;
  int nodes = 0;
  int replays = 0;            ///< graph launches per replay measurement
  double capture_us = 0;      ///< stream capture of the chain, per graph
  double instantiate_us = 0;  ///< cudaGraphInstantiate, per graph
  double replay_sync_us = 0;  ///< graph launch + stream sync, per graph
  double replay_b2b_us = 0;   ///< back-to-back launches then one sync, per graph
};

/// Host µs of one capture of `nodes` launches into `graph` (its old graph is destroyed before timing).
double timed_capture(const Bench& bench, const Workload& work, int nodes, Graph& graph) {
  graph.reset();
  const Clock::time_point start = Clock::now();
  Graph captured = capture(bench.s(), work, nodes);
  const double us = elapsed_us(start);
  graph = std::move(captured);
  return us;
}

/// Host µs of one instantiation of `graph` into `exec` (its old exec is destroyed before timing).
double timed_instantiate(const Graph& graph, GraphExec& exec) {
  exec.reset();
  const Clock::time_point start = Clock::now();
  GraphExec instantiated = instantiate(graph);
  const double us = elapsed_us(start);
  exec = std::move(instantiated);
  return us;
}

/// Host µs per graph of `replays` launches of `exec`, synced after each or once at the end.
double replay_us(const Bench& bench, const GraphExec& exec, int replays, bool sync_each) {
  const auto run_batch = [&] {
    replay(bench.s(), exec, replays, sync_each);
    bench.sync();
  };
  return median_of(bench.config.repeat, [&] { return host_us(run_batch) / replays; });
}

/// Capture, instantiate and replay costs of a chain of `nodes` launches of `work`.
SweepPoint measure_graph(const Bench& bench, const Workload& work, int nodes) {
  SweepPoint point{work.name(), nodes, std::clamp(kReplayNodeBudget / nodes, 5, 200)};
  Graph graph;
  GraphExec exec;
  point.capture_us = median_of(bench.config.repeat, [&] { return timed_capture(bench, work, nodes, graph); });
  point.instantiate_us = median_of(bench.config.repeat, [&] { return timed_instantiate(graph, exec); });
  graph.reset();  // the executable graph does not need it; large graphs are not kept around
  point.replay_sync_us = replay_us(bench, exec, point.replays, true);
  point.replay_b2b_us = replay_us(bench, exec, point.replays, false);
  return point;
}

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

/// Prints the sweep table's header.
void print_sweep_header() {
  fmt::print("\n3. graph size sweep: chain of N dependent kernels from stream capture (µs; /node = per node)\n");
  fmt::print("  {:<6} {:>5} {:>10} {:>7} {:>11} {:>7} {:>12} {:>7} {:>12} {:>7}\n", "kernel", "N", "capture", "/node",
             "instantiate", "/node", "launch+sync", "/node", "back-to-back", "/node");
}

/// Prints one sweep row.
void print_sweep_row(const SweepPoint& p) {
  const double n = p.nodes;
  fmt::print("  {:<6} {:>5} {:>10.1f} {:>7.3f} {:>11.1f} {:>7.3f} {:>12.2f} {:>7.3f} {:>12.2f} {:>7.3f}\n", p.kernel,
             p.nodes, p.capture_us, p.capture_us / n, p.instantiate_us, p.instantiate_us / n, p.replay_sync_us,
             p.replay_sync_us / n, p.replay_b2b_us, p.replay_b2b_us / n);
}

/// 3. The sweep over graph sizes for `work`; appends to `points`.
void sweep(const Bench& bench, const Workload& work, const std::vector<int>& sizes, std::vector<SweepPoint>& points) {
  for (const int nodes : sizes) {
    points.push_back(measure_graph(bench, work, nodes));
    print_sweep_row(points.back());
  }
}

/// The sweep point of `kernel` with `nodes` nodes.
const SweepPoint& find_point(const std::vector<SweepPoint>& points, std::string_view kernel, int nodes) {
  for (const SweepPoint& p : points)
    if (p.kernel == kernel && p.nodes == nodes) return p;
  throw Error(ExitCode::internal, "summary", fmt::format("no {}-node '{}' graph in the sweep", nodes, kernel));
}

/// Per-node cost: slope of `time` between the kFitSmall- and kFitLarge-node graphs of `kernel`.
template <class Time>
double node_slope(const std::vector<SweepPoint>& points, std::string_view kernel, Time time) {
  const SweepPoint& smaller = find_point(points, kernel, kFitSmall);
  const SweepPoint& larger = find_point(points, kernel, kFitLarge);
  return (time(larger) - time(smaller)) / (kFitLarge - kFitSmall);
}

/// Slope fits of one kernel's sweep.
Json node_fits(const std::vector<SweepPoint>& points, std::string_view kernel) {
  const auto sync = [](const SweepPoint& p) { return p.replay_sync_us; };
  const auto b2b = [](const SweepPoint& p) { return p.replay_b2b_us; };
  const auto inst = [](const SweepPoint& p) { return p.instantiate_us; };
  return {{"replay_us_per_node", node_slope(points, kernel, sync)},
          {"replay_b2b_us_per_node", node_slope(points, kernel, b2b)},
          {"instantiate_us_per_node", node_slope(points, kernel, inst)}};
}

/// 4. The floors: eager enqueue cost against graph per-node cost.
Json summarize(const Json& empty_kernel, const Json& short_kernel, const std::vector<SweepPoint>& points) {
  const Json fit_empty = node_fits(points, "empty");
  const Json fit_scale = node_fits(points, "scale");
  const double enqueue = empty_kernel["enqueue_us_per_launch"].get<double>();
  const double node_empty = fit_empty["replay_us_per_node"].get<double>();
  const double node_scale = fit_scale["replay_us_per_node"].get<double>();
  const double graph_speedup =
      short_kernel["sync_each_us_per_kernel"].get<double>() / short_kernel["graph_us_per_kernel"].get<double>();
  fmt::print("\n4. summary (per-node costs: slope between the {}- and {}-node graphs)\n", kFitSmall, kFitLarge);
  print_row("eager host enqueue cost per kernel", enqueue);
  print_row("graph cost per node, empty kernels (launch + sync)", node_empty);
  print_row("graph cost per node, empty kernels (back to back)", fit_empty["replay_b2b_us_per_node"].get<double>());
  print_row("graph cost per node, scale kernels (launch + sync)", node_scale);
  print_row("instantiate cost per node, empty kernels", fit_empty["instantiate_us_per_node"].get<double>());
  print_row("eager enqueue / graph node (empty)", enqueue / node_empty, "x");
  print_row("short kernel: sync each / graph of 20, per kernel", graph_speedup, "x");
  return {{"eager_enqueue_us_per_kernel", enqueue},
          {"graph_node_us_empty", node_empty},
          {"graph_node_us_scale", node_scale},
          {"eager_over_graph_node", enqueue / node_empty},
          {"short_kernel_graph_speedup", graph_speedup},
          {"fit_nodes", {kFitSmall, kFitLarge}},
          {"fit_empty", fit_empty},
          {"fit_scale", fit_scale}};
}

/// 5. Grid-wide barriers (cooperative launch): µs per barrier for grids of a few blocks to as
/// many as fit, from the difference between kernels of many and of no barriers.
Json measure_grid_barrier(const Bench& bench) {
  constexpr int threads = 256;
  constexpr int barriers = 1000;
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  BENCH_CUDA_CHECK(cudaGetDevice(&device));
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  BENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, grid_barrier_kernel, threads, 0));
  const auto kernel_us = [&](int blocks, int count) {
    void* args[] = {&count};
    return median_of(bench.config.repeat, [&] {
      return gpu_us(bench, [&] {
        BENCH_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_barrier_kernel), dim3(blocks),
                                                     dim3(threads), args, 0, bench.s()));
      });
    });
  };
  fmt::print("\n5. grid-wide barrier (cooperative launch, {} threads a block, {} barriers a kernel)\n", threads,
             barriers);
  Json rows = Json::array();
  for (const int blocks : {16, 48, 80, multiprocessors, 4 * multiprocessors}) {
    if (blocks > per_multiprocessor * multiprocessors) continue;
    const double us = (kernel_us(blocks, barriers) - kernel_us(blocks, 0)) / barriers;
    print_row(fmt::format("one barrier, {} blocks", blocks), us);
    rows.push_back({{"blocks", blocks}, {"us_per_barrier", us}});
  }
  return rows;
}

/// Opens the JSON output now, so a bad path fails before the measurements rather than after.
std::ofstream open_json(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw Error(ExitCode::io, path, "cannot open for writing");
  return out;
}

/// Runs every measurement and returns the JSON document.
Json run_all(const Config& config) {
  Json doc = {
      {"benchmark", "simapp-bench launch overhead"},
      {"config", {{"repeat", config.repeat}, {"single_samples", config.single_samples}, {"quick", config.quick}}},
      {"device", describe_device(config)}};
  const Bench bench{config};
  warm_up(bench);
  verify_scale_kernel(bench);
  doc["empty_kernel"] = measure_empty_kernel(bench);
  doc["short_kernel"] = measure_short_kernel(bench);
  print_sweep_header();
  std::vector<SweepPoint> points;
  sweep(bench, bench.empty(), kEmptySweep, points);
  sweep(bench, bench.scale(), kScaleSweep, points);
  doc["graph_sweep"] = Json::array();
  for (const SweepPoint& p : points) doc["graph_sweep"].push_back(to_json(p));
  doc["summary"] = summarize(doc["empty_kernel"], doc["short_kernel"], points);
  doc["grid_barrier"] = measure_grid_barrier(bench);
  return doc;
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
  Json doc = run_all(config);
  doc["wall_s"] = elapsed_us(start) * 1e-6;
  fmt::print("\nfinished in {:.1f} s\n", doc["wall_s"].get<double>());
  if (!config.json_path.empty()) {
    json_out << doc.dump(2) << '\n';
    json_out.close();
    if (!json_out) throw Error(ExitCode::io, config.json_path, "writing failed");
    fmt::print("wrote {}\n", config.json_path);
  }
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
