#include "kernels/stage/persistent_steps_3d.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "kernels/backend/launch_counter.hpp"

#if defined(__CUDACC__)
#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/persistent_loop.cuh"
#include "kernels/stage/stage_tile.hpp"
#include "kernels/time/step_scheme.hpp"
#endif

namespace simapp {

#if defined(__CUDACC__)

namespace {

using namespace persistent;
using Scheme3d = StepSchemeOf<3>;
constexpr int passes_3d = Scheme3d::passes;

/// A block's shared memory: the tile of one pass at a time (pass tiles, or stage tiles).
template <template <Direction, int> class Work, int Threads>
union DirectionTiles {
  typename Work<Direction::x, Threads>::Tile x;
  typename Work<Direction::y, Threads>::Tile y;
  typename Work<Direction::z, Threads>::Tile z;

  template <Direction D>
  __device__ auto& of() {
    if constexpr (D == Direction::x)
      return x;
    else if constexpr (D == Direction::y)
      return y;
    else
      return z;
  }
};

/// Checks every cell, waits for every block's checks, then counts the check; true when a check
/// has failed.
__device__ bool health_check_failed(const PersistentSteps3d& p, cg::grid_group& grid) {
  const FieldShape<3>& shape = p.state.shape;
  const long layer = static_cast<long>(shape.nx) * shape.ny;
  const long cells = layer * shape.nz;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
    check_cell_health_3d(p.state, p.background, p.geometry, p.record, static_cast<int>(c / layer),
                         static_cast<int>(c % layer / shape.nx), static_cast<int>(c % shape.nx));
  grid.sync();
  return count_check(p, grid);
}

/// The loop over a launch's steps (run_steps); `cells_checked`: whether each tile of the step
/// body's last pass checks its own cells after it (else every cell is checked after the step).
template <class Scheme, class Step>
__device__ void run_model_steps(const Scheme& scheme, const PersistentSteps3d& p,
                                const StepValues<StepParams<3>>& values, int steps, cg::grid_group& grid,
                                bool cells_checked, const Step& step_body) {
  run_steps(
      scheme, p, values, steps, grid,
      [&] { return cells_checked ? count_check(p, grid) : health_check_failed(p, grid); }, step_body);
}

/// The StepParams<2> of a step of each of the schedule's lengths.
StepValues<StepParams<3>> step_values(const TimeSchedule& s) {
  return StepValues<StepParams<3>>::of(s, [&](double dt) { return step_params(dt, s.dx, s.dy, s.dz, s.dissipation); });
}

// ---- A barrier a stage: the 3-D stage kernel's tiles ----

template <Direction D, int Threads>
using Stage3d = StageKernel<D, 3, Threads>;
template <Direction D, int Threads>
using Pass3d = PassTile<D, 3, Threads>;

/// The kernel's parameter: the step scheme, the steps' arguments and every stage kernel, per
/// StepParams<2> slot and RK3 stage.
template <int Threads>
struct PersistentStages3d {
  Scheme3d scheme;
  PersistentSteps3d steps;
  StepValues<StepParams<3>> step_values;
  Stage3d<Direction::x, Threads> x[2][rk_stages];
  Stage3d<Direction::y, Threads> y[2][rk_stages];
  Stage3d<Direction::z, Threads> z[2][rk_stages];

  template <Direction D>
  __device__ const Stage3d<D, Threads>& stage(int slot, int s) const {
    if constexpr (D == Direction::x)
      return x[slot][s];
    else if constexpr (D == Direction::y)
      return y[slot][s];
    else
      return z[slot][s];
  }
};

/// The plane a stage of the pass along D tiles (x, y: (i, j); z: (i, k)) and its layers.
template <Direction D>
__host__ __device__ IndexBox stage_plane(const FieldShape<3>& s) {
  return D == Direction::z ? IndexBox{0, s.nx, 0, s.nz} : IndexBox{0, s.nx, 0, s.ny};
}
template <Direction D>
__host__ __device__ int stage_layers(const FieldShape<3>& s) {
  return D == Direction::z ? s.ny : s.nz;
}

template <Direction D, int Threads>
__host__ __device__ int stage_tiles(const FieldShape<3>& s) {
  using Kernel = Stage3d<D, Threads>;
  const IndexBox plane = stage_plane<D>(s);
  return tile_count(plane.width(), Kernel::tile_x) * tile_count(plane.height(), Kernel::tile_z) * stage_layers<D>(s);
}

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D, int Threads>
__device__ void stage_over_tiles(const Stage3d<D, Threads>& kernel, DirectionTiles<Stage3d, Threads>& shared) {
  using Kernel = Stage3d<D, Threads>;
  const IndexBox plane = stage_plane<D>(kernel.arrays.shape);
  const int tiles_x = tile_count(plane.width(), Kernel::tile_x);
  const int tiles_plane = tiles_x * tile_count(plane.height(), Kernel::tile_z);
  const int tiles = tiles_plane * stage_layers<D>(kernel.arrays.shape);
  const int a0 = static_cast<int>(threadIdx.x) % tile_threads_x<Kernel>;
  const int b0 = static_cast<int>(threadIdx.x) / tile_threads_x<Kernel>;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    const int in_plane = t % tiles_plane;
    const LayerTileOrigin origin{
        tile_origin(plane, in_plane % tiles_x, in_plane / tiles_x, Kernel::tile_x, Kernel::tile_z), t / tiles_plane};
    run_tile_in_block(kernel, shared.template of<D>(), origin, a0, b0);
  }
}

template <int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_stages_3d_kernel(const __grid_constant__ PersistentStages3d<Threads> k, int steps) {
  __shared__ DirectionTiles<Stage3d, Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.scheme, k.steps, k.step_values, steps, grid, false, [&](StepParity parity, bool) {
    const int slot = parity_index(parity);
    for (int p = 0; p < passes_3d; ++p)
      with_direction_of<3>(k.scheme.pass(parity, p), [&](auto d) {
        constexpr Direction D = decltype(d)::value;
#pragma unroll
        for (int s = 0; s < rk_stages; ++s) {
          stage_over_tiles(k.template stage<D>(slot, s), shared);
          grid.sync();
        }
      });
  });
}

/// The stage kernels of slot `slot`, each reading and writing the arrays the scheme's stage
/// names (qⁿ → q* → q** → qⁿ⁺¹) and the slot's StepParams<3>.
template <Direction D, int Threads>
void make_stages(const Scheme3d& scheme, const PersistentSteps3d& p, int slot,
                 Stage3d<D, Threads> (&stages)[rk_stages]) {
  const auto array = [&](StageArray which) { return stage_array(which, p.state, p.stage1, p.stage2); };
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{},
                 stage_arrays(p.state, array(scheme.stages[s].input), array(scheme.stages[s].output)),
                 FluxContext<3>{p.geometry, p.background, p.params + slot, s},
                 p.wave_source,
                 p.boundaries};
}

// ---- A barrier a pass: the pass tiles ----

/// The kernel's parameter with a barrier a pass: the step scheme, and per StepParams<2> slot the
/// three passes, the first from the state into stage1, the second into stage2, the third back.
template <int Threads>
struct PersistentPasses3d {
  Scheme3d scheme;
  PersistentSteps3d steps;
  StepValues<StepParams<3>> step_values;
  PassTile<Direction::x, 3, Threads> x[2];
  PassTile<Direction::y, 3, Threads> y[2];
  PassTile<Direction::z, 3, Threads> z[2];

  template <Direction D>
  __host__ __device__ auto& pass(int slot) {
    if constexpr (D == Direction::x)
      return x[slot];
    else if constexpr (D == Direction::y)
      return y[slot];
    else
      return z[slot];
  }
  template <Direction D>
  __device__ const auto& pass(int slot) const {
    if constexpr (D == Direction::x)
      return x[slot];
    else if constexpr (D == Direction::y)
      return y[slot];
    else
      return z[slot];
  }
};

/// A split pass, its three stages tile by tile in shared memory (with `check_into`, each tile's
/// output cells checked after), then a grid barrier.
template <Direction D, int Threads>
__device__ void fused_pass(const PassTile<D, 3, Threads>& pass, HealthRecord* check_into,
                           DirectionTiles<Pass3d, Threads>& shared, cg::grid_group& grid) {
  typename PassTile<D, 3, Threads>::Tile& tile = shared.template of<D>();
  const int tiles = pass.tile_count();
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    pass.run(tile, t, static_cast<int>(threadIdx.x), Threads, [] { __syncthreads(); });
    if (check_into != nullptr) pass.check_output(t, static_cast<int>(threadIdx.x), Threads, check_into);
  }
  grid.sync();
}

/// Blocks of the pass kernel a multiprocessor holds at least (up to 168 registers a thread):
/// left to itself the compiler gives the tiles' paired loads 173 registers, two blocks a
/// multiprocessor, too few for the 288 tiles of 48 × 24 × 10 on 132 multiprocessors.
constexpr int pass_blocks_per_sm = 3;

/// One barrier a pass: the pass tiles.
template <int Threads>
__global__ void __launch_bounds__(Threads, pass_blocks_per_sm)
    persistent_passes_3d_kernel(const __grid_constant__ PersistentPasses3d<Threads> k, int steps) {
  __shared__ DirectionTiles<Pass3d, Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.scheme, k.steps, k.step_values, steps, grid, true, [&](StepParity parity, bool check) {
    const int slot = parity_index(parity);
    for (int p = 0; p < passes_3d; ++p)
      with_direction_of<3>(k.scheme.pass(parity, p), [&](auto d) {
        HealthRecord* check_into = check && p == passes_3d - 1 ? k.steps.record : nullptr;
        fused_pass(k.template pass<decltype(d)::value>(slot), check_into, shared, grid);
      });
  });
}

/// The passes of a step of parity `parity`, in its StepParams<3> slot: pass p reads the array
/// pass p − 1 wrote (state → stage1 → stage2 → state); a pass tile holds its stages itself.
template <int Threads>
void make_passes(const Scheme3d& scheme, const PersistentSteps3d& p, StepParity parity,
                 PersistentPasses3d<Threads>& kernels) {
  static_assert(passes_3d == 3, "the passes take the state through stage1 and stage2 and back");
  const int slot = parity_index(parity);
  const FieldView<double, 3> arrays[passes_3d + 1] = {p.state, p.stage1, p.stage2, p.state};
  for (int n = 0; n < passes_3d; ++n)
    with_direction_of<3>(scheme.pass(parity, n), [&](auto d) {
      constexpr Direction D = decltype(d)::value;
      set_pass(kernels.template pass<D>(slot), arrays[n], arrays[n + 1], p.geometry, p.background, p.params + slot,
               p.wave_source);
    });
}

template <int Threads>
int pass_tiles(const FieldShape<3>& shape) {
  PassTile<Direction::x, 3, Threads> x{};
  PassTile<Direction::y, 3, Threads> y{};
  PassTile<Direction::z, 3, Threads> z{};
  x.input.shape = y.input.shape = z.input.shape = shape;
  return std::max({x.tile_count(), y.tile_count(), z.tile_count()});
}

template <int Threads>
int tiles_of_largest_stage(const FieldShape<3>& shape) {
  return std::max({stage_tiles<Direction::x, Threads>(shape), stage_tiles<Direction::y, Threads>(shape),
                   stage_tiles<Direction::z, Threads>(shape)});
}

}  // namespace

PersistentGrid persistent_grid(const PersistentSteps3d& steps) {
  const FieldShape<3>& shape = steps.state.shape;
  return choose_grid(
      passes_3d, pass_tile_makes(steps.boundaries), pass_tiles<pass_threads>(shape),
      reinterpret_cast<const void*>(persistent_passes_3d_kernel<pass_threads>),
      [&](auto threads) { return tiles_of_largest_stage<decltype(threads)::value>(shape); },
      [](auto threads) {
        return reinterpret_cast<const void*>(persistent_stages_3d_kernel<decltype(threads)::value>);
      });
}

void run_persistent_steps(const Stream& stream, const PersistentSteps3d& steps_args, const PersistentGrid& grid,
                          int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  if (grid.barrier_a_pass) {
    PersistentPasses3d<pass_threads> kernels{
        step_scheme_3d(), steps_args, step_values(steps_args.schedule), {}, {}, {}};
    for (const StepParity parity : {StepParity::odd, StepParity::even})
      make_passes(kernels.scheme, steps_args, parity, kernels);
    launch(reinterpret_cast<const void*>(persistent_passes_3d_kernel<pass_threads>), grid.blocks, pass_threads, kernels,
           steps, stream.cuda_stream);
    return;
  }
  with_block_threads(grid.block_threads, [&](auto t) {
    constexpr int threads = decltype(t)::value;
    PersistentStages3d<threads> kernels{step_scheme_3d(), steps_args, step_values(steps_args.schedule), {}, {}, {}};
    for (int slot = 0; slot < 2; ++slot) {
      make_stages(kernels.scheme, steps_args, slot, kernels.x[slot]);
      make_stages(kernels.scheme, steps_args, slot, kernels.y[slot]);
      make_stages(kernels.scheme, steps_args, slot, kernels.z[slot]);
    }
    launch(reinterpret_cast<const void*>(persistent_stages_3d_kernel<threads>), grid.blocks, threads, kernels, steps,
           stream.cuda_stream);
  });
}

#else

PersistentGrid persistent_grid(const PersistentSteps3d&) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

void run_persistent_steps(const Stream&, const PersistentSteps3d&, const PersistentGrid&, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

#endif

}  // namespace simapp
