/// simapp-bench-3d: the 3-D model's step (x, y and z passes of three RK3 stages:
/// solver/step/build_step_program.hpp) on one GPU, at stage granularity (nine stage kernels,
/// kernels/stage/stage_kernel_3d.hpp) and at pass granularity (three pass kernels,
/// kernels/stage/pass_kernel_3d.hpp), launched eagerly and as CUDA graphs of one step pair and of 25
/// step pairs, at the sizes the 3-D issue names; beside it the stage-at-a-time memory floor (960 B a
/// cell a step, the stage kernels' accounting, at the copy bandwidth measured in the same run), and
/// whether the pass kernels' state equals the stage kernels' bit for bit after the same steps.
/// Prints a table and writes JSON (docs/performance.md).
///   simapp-bench-3d [--pairs N] [--grid NXxNYxNZ] [--json FILE]
///   OMP_NUM_THREADS=1 simapp-bench-3d --host [--pairs N] [--json FILE]   the host backend's per-core
///       cost of a 3-D cell-stage against a 2-D one (64 × 64 × 32 against 512 × 256 cells)
#define SIMAPP_CUDA_RUNTIME 1  // the CUDA runtime API from a host source (kernels/backend/cuda_check.hpp)
#include <cuda_runtime.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_cuda_check.cuh"
#include "bench/event_timing.hpp"
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/step/build_step_program.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

struct Size3d {
  int nx, ny, nz;
  double jax_us;  ///< the JAX version's µs a step (float64, 50 step pairs a launch), measured on an H200
};

/// Bytes a cell a step of the stage kernels: each pass reads its input (5 values) and writes its
/// output (5) in every stage, and reads the step's initial state (5) in stages 2 and 3.
constexpr double bytes_per_cell_step = 3.0 * (10.0 + 15.0 + 15.0) * sizeof(double);
/// Bytes a cell a step of the pass kernels: each pass reads qⁿ (5 values) and writes qⁿ⁺¹ (5).
constexpr double pass_bytes_per_cell_step = 3.0 * 10.0 * sizeof(double);

/// Device-to-device copy bandwidth (bytes read plus written a second) of a 2 GiB copy, the best of 5.
double copy_bandwidth(const Stream& stream) {
  const std::size_t bytes = std::size_t{1} << 31;
  DeviceBuffer<char> from(Backend::cuda, bytes), to(Backend::cuda, bytes);
  const float best_ms = best_milliseconds(stream, 5, [&] {
    BENCH_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice, stream.cuda_stream));
  });
  return 2.0 * static_cast<double>(bytes) / (best_ms * 1e-3);
}

/// The 3-D thermal on nx × ny × nz: the 2-D case's state at every j plus a pattern that varies
/// along y, its three step arrays, background and step parameters on the GPU, and its steps at
/// `granularity` (stage or pass).
class Model3d {
 public:
  Model3d(const Stream& stream, const Size3d& size, Granularity granularity = Granularity::stage)
      : stream_(stream),
        grid_(grid_spec(size)),
        background_(stream, case_background(CaseName::thermal), grid_.geometry<2>(), size.nz),
        shape_{size.nx, size.ny, size.nz, numerics::halo_width, V3::count},
        state_(stream.backend, shape_.size()),
        stage1_(stream.backend, shape_.size()),
        stage2_(stream.backend, shape_.size()),
        params_(stream, 1) {
    const double ylen = grid_.spec().xlen, dy = ylen / size.ny;
    geometry_ = {grid_.geometry<2>(), dy, ylen, size.ny, 0};
    const double dt = 1.5 * std::min({grid_.dx(), dy, grid_.dz()}) / 450.0;
    const StepParams<3> params = step_params(dt, grid_.dx(), dy, grid_.dz(), Dissipation{});
    params_.write_slots({&params, 1});
    params_.enqueue_refresh(stream, 1);
    DeviceBuffer<double> two_d(stream.backend, grid_.cell_shape<2>().size());
    set_initial_state(stream, FieldView<double, 2>{two_d.data(), grid_.cell_shape<2>()}, CaseName::thermal,
                      case_bump(CaseName::thermal, grid_.spec().xlen), grid_.geometry<2>());
    const std::vector<double> q2_values = two_d.copy_to_host(stream);
    const FieldView<const double, 2> q2{q2_values.data(), grid_.cell_shape<2>()};
    std::vector<double> q3_values(shape_.size(), 0.0);
    const FieldView<double, 3> q3{q3_values.data(), shape_};
    const int v2_of[V3::count] = {var::dens, var::umom, -1, var::wmom, var::rhot};
    for (int v = 0; v < V3::count; ++v)
      for (int k = 0; k < size.nz; ++k)
        for (int j = 0; j < size.ny; ++j)
          for (int i = 0; i < size.nx; ++i)
            q3(v, k, j, i) = (v2_of[v] < 0 ? 0.0 : q2(v2_of[v], k, i)) + 1e-3 * std::sin(0.3 * j + 0.2 * i + v);
    device::copy_async(stream, state_.data(), q3_values.data(), q3_values.size() * sizeof(double),
                       device::CopyDirection::host_to_device);
    device::synchronize(stream);
    const BoundaryConditions<3> sides = periodic_in_y(case_boundaries(CaseName::thermal));
    const StepResources<3> resources{
        {{state_.data(), shape_}, {stage1_.data(), shape_}, {stage2_.data(), shape_}, {}, {}, {}, {}},
        geometry_,
        background_.view(),
        &params_,
        SourceTerms<3>{},
        granularity,
        GhostFill<3>{sides, sides},
        {}};
    odd_ = build_step_program(resources, StepParity::odd, 0);
    even_ = build_step_program(resources, StepParity::even, 0);
  }

  /// Queues one step of parity `parity`: its program's nine stage kernels or three pass kernels.
  void queue_step(StepParity parity) const {
    for (const StepOp& op : (parity == StepParity::odd ? odd_ : even_).ops()) op.run(stream_);
  }

  long cells() const { return static_cast<long>(shape_.nx) * shape_.ny * shape_.nz; }
  std::vector<double> state() const { return state_.copy_to_host(stream_); }
  /// Whether every value of the state is finite (the run did not blow up).
  bool finite() const {
    for (const double value : state())
      if (!std::isfinite(value)) return false;
    return true;
  }

 private:
  static GridSpec grid_spec(const Size3d& size) {
    GridSpec spec;
    spec.nx = size.nx;
    spec.nz = size.nz;
    return spec;
  }

  Stream stream_;
  Grid grid_;
  HydrostaticProfile background_;
  FieldShape<3> shape_;
  CellGeometry<3> geometry_;
  DeviceBuffer<double> state_, stage1_, stage2_;
  StepParamsBlock<3> params_;
  StepProgram odd_, even_;  ///< the two steps of a pair
};

/// µs a step of `pairs` step pairs, queued by `queue_pairs` (which queues `per_call` pairs), best
/// of three timings.
template <class QueuePairs>
double time_per_step(const Stream& stream, int pairs, int per_call, const QueuePairs& queue_pairs) {
  queue_pairs();  // warm-up
  BENCH_CUDA_CHECK(cudaStreamSynchronize(stream.cuda_stream));
  const float best_ms = best_milliseconds(stream, 3, [&] {
    for (int done = 0; done < pairs; done += per_call) queue_pairs();
  });
  return best_ms * 1e3 / (2.0 * pairs);
}

/// A graph of `pairs` step pairs of `model`, captured from its stream.
cudaGraphExec_t capture_pairs(const Stream& stream, const Model3d& model, int pairs) {
  cudaGraph_t graph;
  BENCH_CUDA_CHECK(cudaStreamBeginCapture(stream.cuda_stream, cudaStreamCaptureModeThreadLocal));
  for (int pair = 0; pair < pairs; ++pair) {
    model.queue_step(StepParity::odd);
    model.queue_step(StepParity::even);
  }
  BENCH_CUDA_CHECK(cudaStreamEndCapture(stream.cuda_stream, &graph));
  cudaGraphExec_t exec;
  BENCH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  BENCH_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

/// The 2-D thermal's step on nx × nz cells (six stage kernels), for the host backend's per-core
/// comparison.
class Model2d {
 public:
  Model2d(const Stream& stream, int nx, int nz)
      : stream_(stream),
        grid_(grid_spec(nx, nz)),
        background_(stream, case_background(CaseName::thermal), grid_.geometry<2>(), nz),
        state_(stream.backend, grid_.cell_shape<2>().size()),
        stage1_(stream.backend, grid_.cell_shape<2>().size()),
        stage2_(stream.backend, grid_.cell_shape<2>().size()),
        params_(step_params(1.5 * std::min(grid_.dx(), grid_.dz()) / 450.0, grid_.dx(), grid_.dz(), Dissipation{})) {
    set_initial_state(stream, FieldView<double, 2>{state_.data(), grid_.cell_shape<2>()}, CaseName::thermal,
                      case_bump(CaseName::thermal, grid_.spec().xlen), grid_.geometry<2>());
  }
  void queue_step(StepParity parity) const {
    constexpr StepScheme scheme = step_scheme();
    const FieldShape<2> shape = grid_.cell_shape<2>();
    const FieldView<double, 2> arrays[3] = {{state_.data(), shape}, {stage1_.data(), shape}, {stage2_.data(), shape}};
    for (int p = 0; p < scheme.passes; ++p)
      for (int s = 0; s < rk_stages; ++s) {
        const RkStage& rk = scheme.stages[s];
        apply_stage(stream_, scheme.pass(parity, p),
                    stage_arrays(arrays[0], stage_array(rk.input, arrays[0], arrays[1], arrays[2]),
                                 stage_array(rk.output, arrays[0], arrays[1], arrays[2])),
                    FluxContext<2>{grid_.geometry<2>(), background_.view(), &params_, s}, SourceTerms<2>{},
                    case_boundaries(CaseName::thermal), interior_cells(shape));
      }
  }
  long cells() const { return static_cast<long>(grid_.nx()) * grid_.nz(); }

 private:
  static GridSpec grid_spec(int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  Stream stream_;
  Grid grid_;
  HydrostaticProfile background_;
  DeviceBuffer<double> state_, stage1_, stage2_;
  StepParams<2> params_;  ///< host memory: the host backend reads it there
};

/// Host seconds a step pair of `model`, the best of three runs of `pairs` pairs.
template <class Model>
double host_seconds_per_pair(const Model& model, int pairs) {
  double best = 1e30;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto begin = std::chrono::steady_clock::now();
    for (int pair = 0; pair < pairs; ++pair) {
      model.queue_step(StepParity::odd);
      model.queue_step(StepParity::even);
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() / pairs);
  }
  return best;
}

/// The host backend: ns a cell-stage of the 3-D step at 64 × 64 × 32 against the 2-D step on as
/// many cells (512 × 256), with the threads OMP_NUM_THREADS gives (1: per core).
int host_comparison(int pairs, const std::string& json_path) {
  const Stream host{};
  const Model3d three_d(host, {64, 64, 32, 0.0});
  const Model2d two_d(host, 512, 256);
  const double seconds_3d = host_seconds_per_pair(three_d, pairs);
  const double seconds_2d = host_seconds_per_pair(two_d, pairs);
  const double ns_3d = seconds_3d * 1e9 / (2.0 * 9.0 * static_cast<double>(three_d.cells()));
  const double ns_2d = seconds_2d * 1e9 / (2.0 * 6.0 * static_cast<double>(two_d.cells()));
  std::printf("host backend, %d thread(s): ns a cell-stage: 3-D 64x64x32 %.1f, 2-D 512x256 %.1f, ratio %.2f\n",
              omp_get_max_threads(), ns_3d, ns_2d, ns_3d / ns_2d);
  if (!json_path.empty())
    std::ofstream(json_path) << nlohmann::json{{"threads", omp_get_max_threads()},
                                               {"ns_per_cell_stage_3d", ns_3d},
                                               {"ns_per_cell_stage_2d", ns_2d},
                                               {"ratio", ns_3d / ns_2d}}
                                    .dump(2)
                             << "\n";
  return 0;
}

}  // namespace
}  // namespace simapp

int main(int argc, char** argv) {
  using namespace simapp;
  CLI::App cli{"simapp-bench-3d: the 3-D model's step on one GPU, eager and as CUDA graphs"};
  int pairs = 100;
  std::string json_path, only;
  cli.add_option("--pairs", pairs, "step pairs timed at each size (a multiple of 25)")->check(CLI::PositiveNumber);
  cli.add_option("--json", json_path, "also write the results to this JSON file");
  cli.add_option("--grid", only, "only this of the sizes, e.g. 256x256x128 (for a profiler)");
  bool host = false;
  cli.add_flag("--host", host,
               "the host backend instead: a 3-D cell-stage's cost against a 2-D one's (OMP_NUM_THREADS=1: per core)");
  CLI11_PARSE(cli, argc, argv);
  if (host) return host_comparison(std::max(1, pairs / 25), json_path);
  pairs = std::max(25, pairs / 25 * 25);
  if (device::device_count() == 0) {
    std::fprintf(stderr, "simapp-bench-3d: error: no CUDA device visible\n");
    return 1;
  }
  const Stream stream = device::create_stream(Backend::cuda);
  const double bandwidth = copy_bandwidth(stream);
  std::printf("3-D step, float64; copy bandwidth %.0f GB/s; floor: 960 B a cell a step (stage at a time)\n",
              bandwidth / 1e9);
  std::printf("%-14s %-8s %11s %11s %11s %11s %8s %9s %10s\n", "grid", "kernels", "eager µs", "graph1 µs", "graph25 µs",
              "floor µs", "x floor", "% of bw", "x JAX");
  nlohmann::json results = nlohmann::json::array();
  const Size3d sizes[] = {{48, 24, 10, 62.8}, {64, 64, 32, 192.7}, {128, 128, 64, 1589.0}, {256, 256, 128, 11015.0}};
  for (const Size3d& size : sizes) {
    const std::string grid = std::to_string(size.nx) + "x" + std::to_string(size.ny) + "x" + std::to_string(size.nz);
    if (!only.empty() && grid != only) continue;
    std::vector<double> stage_state;
    for (const Granularity granularity : {Granularity::stage, Granularity::pass}) {
      const Model3d model(stream, size, granularity);
      const bool pass = granularity == Granularity::pass;
      const double eager = time_per_step(stream, pairs, 1, [&] {
        model.queue_step(StepParity::odd);
        model.queue_step(StepParity::even);
      });
      const cudaGraphExec_t one_pair = capture_pairs(stream, model, 1);
      const double graph1 =
          time_per_step(stream, pairs, 1, [&] { BENCH_CUDA_CHECK(cudaGraphLaunch(one_pair, stream.cuda_stream)); });
      const cudaGraphExec_t many_pairs = capture_pairs(stream, model, 25);
      const double graph25 =
          time_per_step(stream, pairs, 25, [&] { BENCH_CUDA_CHECK(cudaGraphLaunch(many_pairs, stream.cuda_stream)); });
      BENCH_CUDA_CHECK(cudaGraphExecDestroy(one_pair));
      BENCH_CUDA_CHECK(cudaGraphExecDestroy(many_pairs));
      // Both models ran the same steps from the same state: their states must agree bit for bit.
      const std::vector<double> state = model.state();
      if (!pass) stage_state = state;
      const bool same_as_stage = state == stage_state;
      const double best = std::min({eager, graph1, graph25});
      const double cells = static_cast<double>(model.cells());
      const double floor_us = bytes_per_cell_step * cells / bandwidth * 1e6;
      const double moved = (pass ? pass_bytes_per_cell_step : bytes_per_cell_step) * cells;
      std::printf("%-14s %-8s %11.1f %11.1f %11.1f %11.1f %8.2f %9.1f %10.2f%s%s\n", grid.c_str(),
                  pass ? "3 pass" : "9 stage", eager, graph1, graph25, floor_us, best / floor_us,
                  100.0 * moved / (best * 1e-6) / bandwidth, size.jax_us / best,
                  model.finite() ? "" : "  (state not finite)",
                  same_as_stage ? "" : "  (state differs from the stage kernels')");
      results.push_back({{"grid", grid},
                         {"granularity", pass ? "pass" : "stage"},
                         {"cells", model.cells()},
                         {"eager_us_per_step", eager},
                         {"graph_1_pair_us_per_step", graph1},
                         {"graph_25_pairs_us_per_step", graph25},
                         {"floor_us_per_step", floor_us},
                         {"bytes_per_cell_step", bytes_per_cell_step},
                         {"moved_bytes_per_cell_step", pass ? pass_bytes_per_cell_step : bytes_per_cell_step},
                         {"copy_bandwidth_bytes_per_s", bandwidth},
                         {"jax_us_per_step", size.jax_us},
                         {"speedup_vs_jax", size.jax_us / best},
                         {"finite", model.finite()},
                         {"bit_identical_to_stage", same_as_stage}});
    }
  }
  device::destroy_stream(stream);
  if (!json_path.empty()) std::ofstream(json_path) << results.dump(2) << "\n";
  return 0;
}
