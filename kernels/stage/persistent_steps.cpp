#include "kernels/stage/persistent_steps.hpp"

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

namespace cg = cooperative_groups;
using namespace persistent;

template <int Threads>
using StageX = StageKernel<Direction::x, 2, Threads>;
template <int Threads>
using StageZ = StageKernel<Direction::z, 2, Threads>;

/// A block's shared memory: the tile of one pass at a time.
template <class XTile, class ZTile>
union EitherTile {
  XTile x;
  ZTile z;

  template <Direction D>
  __device__ auto& of() {
    if constexpr (D == Direction::x)
      return x;
    else
      return z;
  }
};

template <int Threads>
using SharedTile = EitherTile<typename StageX<Threads>::Tile, typename StageZ<Threads>::Tile>;

/// The kernel's parameter: the step scheme it iterates, the steps' arguments and every stage
/// kernel, per StepParams<2> slot (parity_index of the step's parity) and RK3 stage.
template <int Threads>
struct PersistentKernels {
  StepScheme scheme;
  PersistentSteps steps;
  StepValues<StepParams<2>> step_values;
  StageX<Threads> x[2][rk_stages];
  StageZ<Threads> z[2][rk_stages];

  template <Direction D>
  __device__ const StageKernel<D, 2, Threads>& stage(int slot, int s) const {
    if constexpr (D == Direction::x)
      return x[slot][s];
    else
      return z[slot][s];
  }
};

/// The stage kernels of slot `slot`, each reading and writing the arrays the scheme's stage
/// names (qⁿ → q* → q** → qⁿ⁺¹) and the slot's StepParams<2>.
template <Direction D, int Threads>
void make_stages(const StepScheme& scheme, const PersistentSteps& p, int slot,
                 StageKernel<D, 2, Threads> (&stages)[rk_stages]) {
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{},
                 stage_arrays(p.state, stage_array(scheme.stages[s].input, p.state, p.stage1, p.stage2),
                              stage_array(scheme.stages[s].output, p.state, p.stage1, p.stage2)),
                 FluxContext<2>{p.geometry, p.background, p.params + slot, s},
                 p.wave_source,
                 p.boundaries};
}

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D, int Threads>
__device__ void stage_over_tiles(const StageKernel<D, 2, Threads>& kernel, SharedTile<Threads>& shared) {
  using Kernel = StageKernel<D, 2, Threads>;
  const IndexBox cells{0, kernel.arrays.shape.nx, 0, kernel.arrays.shape.nz};
  const int tiles_x = tile_count(cells.width(), Kernel::tile_x);
  const int tiles = tiles_x * tile_count(cells.height(), Kernel::tile_z);
  const int a0 = static_cast<int>(threadIdx.x) % tile_threads_x<Kernel>;
  const int b0 = static_cast<int>(threadIdx.x) / tile_threads_x<Kernel>;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x))
    run_tile_in_block(kernel, shared.template of<D>(),
                      tile_origin(cells, t % tiles_x, t / tiles_x, Kernel::tile_x, Kernel::tile_z), a0, b0);
}

/// A step of parity `parity`: for each pass of the scheme's order, for each RK3 stage, the
/// stage over every tile, then a grid barrier.
template <int Threads>
__device__ void stages_of_step(const PersistentKernels<Threads>& k, StepParity parity, SharedTile<Threads>& shared,
                               cg::grid_group& grid) {
  const int slot = parity_index(parity);
  for (int p = 0; p < split_passes; ++p) {
    const Direction direction = k.scheme.pass(parity, p);
#pragma unroll
    for (int s = 0; s < rk_stages; ++s) {
      if (direction == Direction::x)
        stage_over_tiles(k.template stage<Direction::x>(slot, s), shared);
      else
        stage_over_tiles(k.template stage<Direction::z>(slot, s), shared);
      grid.sync();
    }
  }
}

/// Checks every cell, waits for every block's checks, then counts the check; true when a check
/// has failed.
__device__ bool health_check_failed(const PersistentSteps& p, cg::grid_group& grid) {
  const int nx = p.state.shape.nx;
  const long cells = static_cast<long>(nx) * p.state.shape.nz;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
    check_cell_health(p.state, p.background, p.geometry, p.record, static_cast<int>(c / nx), static_cast<int>(c % nx));
  grid.sync();
  return count_check(p, grid);
}

/// The loop over a launch's steps (run_steps); `cells_checked`: whether each tile of the step
/// body's last pass checks its own cells after it (else every cell is checked after the step).
template <class Scheme, class Step>
__device__ void run_model_steps(const Scheme& scheme, const PersistentSteps& p, const StepValues<StepParams<2>>& values,
                                int steps, cg::grid_group& grid, bool cells_checked, const Step& step_body) {
  run_steps(
      scheme, p, values, steps, grid,
      [&] { return cells_checked ? count_check(p, grid) : health_check_failed(p, grid); }, step_body);
}

/// The StepParams<2> of a step of each of the schedule's lengths.
StepValues<StepParams<2>> step_values(const TimeSchedule& s) {
  return StepValues<StepParams<2>>::of(s, [&](double dt) { return step_params(dt, s.dx, s.dz, s.dissipation); });
}

/// One barrier a stage: the stage kernel's tiles.
template <int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_steps_kernel(const __grid_constant__ PersistentKernels<Threads> k, int steps) {
  __shared__ SharedTile<Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.scheme, k.steps, k.step_values, steps, grid, false,
                  [&](StepParity parity, bool) { stages_of_step(k, parity, shared, grid); });
}

/// The kernel's parameter with a barrier a pass: the step scheme, and per StepParams<2> slot the
/// x pass and the z pass; the first pass of a step writes stage1, the second reads it and
/// writes the state.
template <int Threads>
struct PersistentPasses {
  StepScheme scheme;
  PersistentSteps steps;
  StepValues<StepParams<2>> step_values;
  PassTile<Direction::x, 2, Threads> x[2];
  PassTile<Direction::z, 2, Threads> z[2];
};

template <int Threads>
using SharedPassTile =
    EitherTile<typename PassTile<Direction::x, 2, Threads>::Tile, typename PassTile<Direction::z, 2, Threads>::Tile>;

/// A split pass, its three stages tile by tile in shared memory (with `check_into`, each tile's
/// output cells checked after), then a grid barrier.
template <Direction D, int Threads>
__device__ void fused_pass(const PassTile<D, 2, Threads>& pass, HealthRecord* check_into,
                           SharedPassTile<Threads>& shared, cg::grid_group& grid) {
  typename PassTile<D, 2, Threads>::Tile& tile = shared.template of<D>();
  const int tiles = pass.tile_count();
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    pass.run(tile, t, static_cast<int>(threadIdx.x), Threads, [] { __syncthreads(); });
    if (check_into != nullptr) pass.check_output(t, static_cast<int>(threadIdx.x), Threads, check_into);
  }
  grid.sync();
}

/// One barrier a pass: the pass tiles.
template <int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_passes_kernel(const __grid_constant__ PersistentPasses<Threads> k, int steps) {
  __shared__ SharedPassTile<Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.scheme, k.steps, k.step_values, steps, grid, true, [&](StepParity parity, bool check) {
    const int slot = parity_index(parity);
    for (int p = 0; p < split_passes; ++p) {
      HealthRecord* check_into = check && p == split_passes - 1 ? k.steps.record : nullptr;
      if (k.scheme.pass(parity, p) == Direction::x)
        fused_pass(k.x[slot], check_into, shared, grid);
      else
        fused_pass(k.z[slot], check_into, shared, grid);
    }
  });
}

/// The passes of a step of parity `parity`, in its StepParams<2> slot: the scheme's first pass
/// from the state into stage1, the second back (a pass tile holds its three stages itself).
template <int Threads>
void make_passes(const StepScheme& scheme, const PersistentSteps& p, StepParity parity,
                 PersistentPasses<Threads>& kernels) {
  static_assert(split_passes == 2, "the pass tiles take a step's passes as a first and a second");
  const int slot = parity_index(parity);
  const bool x_first = scheme.pass(parity, 0) == Direction::x;
  set_pass(kernels.x[slot], x_first ? p.state : p.stage1, x_first ? p.stage1 : p.state, p.geometry, p.background,
           p.params + slot, p.wave_source);
  set_pass(kernels.z[slot], x_first ? p.stage1 : p.state, x_first ? p.state : p.stage1, p.geometry, p.background,
           p.params + slot, p.wave_source);
}

template <int Threads>
int tiles_of_larger_pass(int nx, int nz) {
  using X = StageX<Threads>;
  using Z = StageZ<Threads>;
  return std::max(tile_count(nx, X::tile_x) * tile_count(nz, X::tile_z),
                  tile_count(nx, Z::tile_x) * tile_count(nz, Z::tile_z));
}

template <int Threads>
int pass_tiles(int nx, int nz) {
  const FieldShape<2> shape{nx, 1, nz, 0, var::count};
  PassTile<Direction::x, 2, Threads> x{};
  PassTile<Direction::z, 2, Threads> z{};
  x.input.shape = shape;
  z.input.shape = shape;
  return std::max(x.tile_count(), z.tile_count());
}

}  // namespace

PersistentGrid persistent_grid(const PersistentSteps& steps) {
  const int nx = steps.state.shape.nx, nz = steps.state.shape.nz;
  return choose_grid(
      split_passes, pass_tile_makes(steps.boundaries), pass_tiles<pass_threads>(nx, nz),
      reinterpret_cast<const void*>(persistent_passes_kernel<pass_threads>),
      [&](auto threads) { return tiles_of_larger_pass<decltype(threads)::value>(nx, nz); },
      [](auto threads) { return reinterpret_cast<const void*>(persistent_steps_kernel<decltype(threads)::value>); });
}

void run_persistent_steps(const Stream& stream, const PersistentSteps& steps_args, const PersistentGrid& grid,
                          int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  if (grid.barrier_a_pass) {
    PersistentPasses<pass_threads> kernels{step_scheme(), steps_args, step_values(steps_args.schedule), {}, {}};
    for (const StepParity parity : {StepParity::odd, StepParity::even})
      make_passes(kernels.scheme, steps_args, parity, kernels);
    launch(reinterpret_cast<const void*>(persistent_passes_kernel<pass_threads>), grid.blocks, pass_threads, kernels,
           steps, stream.cuda_stream);
    return;
  }
  with_block_threads(grid.block_threads, [&](auto t) {
    constexpr int threads = decltype(t)::value;
    PersistentKernels<threads> kernels{step_scheme(), steps_args, step_values(steps_args.schedule), {}, {}};
    for (int slot = 0; slot < 2; ++slot) {
      make_stages(kernels.scheme, steps_args, slot, kernels.x[slot]);
      make_stages(kernels.scheme, steps_args, slot, kernels.z[slot]);
    }
    launch(reinterpret_cast<const void*>(persistent_steps_kernel<threads>), grid.blocks, threads, kernels, steps,
           stream.cuda_stream);
  });
}

#else

PersistentGrid persistent_grid(const PersistentSteps&) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

void run_persistent_steps(const Stream&, const PersistentSteps&, const PersistentGrid&, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

#endif

}  // namespace simapp
