#include "kernels/stage/persistent_steps.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "foundation/error.hpp"
#include "kernels/backend/launch_counter.hpp"

#if defined(__CUDACC__)
#include <cooperative_groups.h>

#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/stage_tile.hpp"
#endif

namespace simapp {

#if defined(__CUDACC__)

namespace {

namespace cg = cooperative_groups;

/// Threads a block: a tile has a face for each (stage_tile.hpp). Small grids take the
/// smallest tiles that still give every block a tile of its own, so that each
/// multiprocessor has less of a stage to do; large grids the stage kernels' tiles.
constexpr int block_sizes[] = {64, 128, 256};
constexpr int largest_block = 256;

/// Blocks a multiprocessor holds: with the largest tiles four (64 registers a thread, as the
/// stage kernels), else two (up to 128 registers, no spills): those grids have a block per
/// tile either way.
template <int Threads>
constexpr int min_blocks_per_sm = Threads == largest_block ? 4 : 2;

template <int Threads>
using StageX = StageKernel<Direction::x, Threads>;
template <int Threads>
using StageZ = StageKernel<Direction::z, Threads>;

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

/// The two passes of a step in their order: x then z on odd steps (slot 0), z then x on even.
template <class XPass, class ZPass>
__device__ void in_step_order(int slot, const XPass& x_pass, const ZPass& z_pass) {
  if (slot == 0) {
    x_pass();
    z_pass();
  } else {
    z_pass();
    x_pass();
  }
}

/// The kernel's parameter: the steps' arguments and every stage kernel, per StepParams slot
/// (step parity) and RK3 stage.
template <int Threads>
struct PersistentKernels {
  PersistentSteps steps;
  StageX<Threads> x[2][rk_stages];
  StageZ<Threads> z[2][rk_stages];

  template <Direction D>
  __device__ const StageKernel<D, Threads>& stage(int slot, int s) const {
    if constexpr (D == Direction::x)
      return x[slot][s];
    else
      return z[slot][s];
  }
};

/// The stage kernels of slot `slot`: qⁿ → q* → q** → qⁿ⁺¹ for each pass, reading its StepParams.
template <Direction D, int Threads>
void make_stages(const PersistentSteps& p, int slot, StageKernel<D, Threads> (&stages)[rk_stages]) {
  const FieldView<double> input[rk_stages] = {p.state, p.stage1, p.stage2};
  const FieldView<double> output[rk_stages] = {p.stage1, p.stage2, p.state};
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{p.state, input[s], output[s]},
                 FluxContext{p.geometry, p.background, p.params + slot, s},
                 p.wave_source,
                 p.boundaries};
}

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D, int Threads>
__device__ void stage_over_tiles(const StageKernel<D, Threads>& kernel, SharedTile<Threads>& shared) {
  using Kernel = StageKernel<D, Threads>;
  const IndexBox cells{0, kernel.arrays.out.shape.nx, 0, kernel.arrays.out.shape.nz};
  const int tiles_x = tile_count(cells.width(), Kernel::tile_x);
  const int tiles = tiles_x * tile_count(cells.height(), Kernel::tile_z);
  const int a0 = static_cast<int>(threadIdx.x) % tile_threads_x<Kernel>;
  const int b0 = static_cast<int>(threadIdx.x) / tile_threads_x<Kernel>;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x))
    run_tile_in_block(kernel, shared.template of<D>(),
                      tile_origin(cells, t % tiles_x, t / tiles_x, Kernel::tile_x, Kernel::tile_z), a0, b0);
}

/// The three RK3 stages of a split pass, a grid barrier after each.
template <Direction D, int Threads>
__device__ void split_pass(const PersistentKernels<Threads>& k, int slot, SharedTile<Threads>& shared,
                           cg::grid_group& grid) {
#pragma unroll
  for (int s = 0; s < rk_stages; ++s) {
    stage_over_tiles(k.template stage<D>(slot, s), shared);
    grid.sync();
  }
}

/// Checks every cell, then counts the check; true when a check has failed (every block sees
/// the same record after the barrier, so all of them stop together).
__device__ bool health_check_failed(const PersistentSteps& p, cg::grid_group& grid) {
  const int nx = p.state.shape.nx;
  const long cells = static_cast<long>(nx) * p.state.shape.nz;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
    check_cell_health(p.state, p.background, p.geometry, p.record, static_cast<int>(c / nx), static_cast<int>(c % nx));
  grid.sync();
  const bool failed = *static_cast<volatile std::int64_t*>(&p.record->failed_check) >= 0;
  if (grid.thread_rank() == 0) {  // others read checks_run again only after later barriers
    p.record->checks_run += 1;
    *p.mirror = *p.record;
  }
  return failed;
}

/// The StepParams slot of step n: odd steps 0, even steps 1.
__device__ int slot_of(std::int64_t step) { return step % 2 == 1 ? 0 : 1; }

/// Step n's StepParams into its slot.
__device__ void write_step_params(const PersistentSteps& p, std::int64_t step) {
  p.params[slot_of(step)] = step_params(p.schedule.dt_of(step), p.schedule.dx, p.schedule.dz, p.schedule.dissipation);
}

/// The kernel's loop over `steps` steps after p.clock->completed: `step(slot)` runs the two
/// passes of a step whose StepParams are in slot `slot`, ending with a grid barrier.
template <class Step>
__device__ void run_steps(const PersistentSteps& p, int steps, cg::grid_group& grid, const Step& step_body) {
  const std::int64_t completed = p.clock->completed;  // written below only after the last barrier
  if (grid.thread_rank() == 0) write_step_params(p, completed + 1);
  grid.sync();
  int done = 0;
  while (done < steps) {
    const std::int64_t step = completed + done + 1;
    // The other slot was last read in the step before, which every block has finished.
    if (grid.thread_rank() == 0 && done + 1 < steps) write_step_params(p, step + 1);
    step_body(slot_of(step));
    ++done;
    if (checks_after_step(step, p.schedule.num_steps, p.check_every) && health_check_failed(p, grid)) break;
  }
  if (grid.thread_rank() == 0) p.clock->completed = completed + done;
}

/// One barrier a stage: the stage kernel's tiles.
template <int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_steps_kernel(const __grid_constant__ PersistentKernels<Threads> k, int steps) {
  __shared__ SharedTile<Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_steps(k.steps, steps, grid, [&](int slot) {
    in_step_order(
        slot, [&] { split_pass<Direction::x>(k, slot, shared, grid); },
        [&] { split_pass<Direction::z>(k, slot, shared, grid); });
  });
}

/// The kernel's parameter with a barrier a pass: per StepParams slot, the x pass and the z
/// pass; the first pass of a step writes stage1, the second reads it and writes the state.
template <int Threads>
struct PersistentPasses {
  PersistentSteps steps;
  PassTile<Direction::x, Threads> x[2];
  PassTile<Direction::z, Threads> z[2];
};

template <int Threads>
using SharedPassTile =
    EitherTile<typename PassTile<Direction::x, Threads>::Tile, typename PassTile<Direction::z, Threads>::Tile>;

/// A split pass, its three stages tile by tile in shared memory, then a grid barrier.
template <Direction D, int Threads>
__device__ void fused_pass(const PassTile<D, Threads>& pass, SharedPassTile<Threads>& shared, cg::grid_group& grid) {
  typename PassTile<D, Threads>::Tile& tile = shared.template of<D>();
  const int tiles = pass.tile_count();
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x))
    pass.run(tile, t, static_cast<int>(threadIdx.x), Threads, [] { __syncthreads(); });
  grid.sync();
}

/// One barrier a pass: the pass tiles.
template <int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_passes_kernel(const __grid_constant__ PersistentPasses<Threads> k, int steps) {
  __shared__ SharedPassTile<Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_steps(k.steps, steps, grid, [&](int slot) {
    in_step_order(
        slot, [&] { fused_pass(k.x[slot], shared, grid); }, [&] { fused_pass(k.z[slot], shared, grid); });
  });
}

/// The passes of StepParams slot `slot`: the first of the step from the state into stage1,
/// the second back (odd steps, slot 0: x first; even steps: z first).
template <int Threads>
void make_passes(const PersistentSteps& p, int slot, PersistentPasses<Threads>& kernels) {
  const auto contexts = [&](auto& pass) {
    for (int s = 0; s < rk_stages; ++s) pass.context[s] = FluxContext{p.geometry, p.background, p.params + slot, s};
    pass.wave_source = p.wave_source;
  };
  PassTile<Direction::x, Threads>& x = kernels.x[slot];
  PassTile<Direction::z, Threads>& z = kernels.z[slot];
  contexts(x);
  contexts(z);
  const bool x_first = slot == 0;
  x.input = x_first ? p.state : p.stage1;
  x.output = x_first ? p.stage1 : p.state;
  z.input = x_first ? p.stage1 : p.state;
  z.output = x_first ? p.state : p.stage1;
}

template <int Threads>
int tiles_of_larger_pass(int nx, int nz) {
  using X = StageX<Threads>;
  using Z = StageZ<Threads>;
  return std::max(tile_count(nx, X::tile_x) * tile_count(nz, X::tile_z),
                  tile_count(nx, Z::tile_x) * tile_count(nz, Z::tile_z));
}

/// Calls f with std::integral_constant<int, threads> for a size of block_sizes.
template <class F>
decltype(auto) with_block_threads(int threads, F&& f) {
  switch (threads) {
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    default: return f(std::integral_constant<int, 256>{});
  }
}

[[noreturn]] void refuse(const std::string& reason) {
  throw Error(ExitCode::bad_input, "execution.mode", "persistent cannot run on this GPU: " + reason);
}

/// Blocks of `kernel` with `threads` threads that fit on the device at once.
int resident_blocks(const void* kernel, int threads, int multiprocessors) {
  int per_multiprocessor = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, 0),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return per_multiprocessor * multiprocessors;
}

template <int Threads>
int pass_tiles(int nx, int nz) {
  const FieldShape shape{nx, nz, 0, var::count};
  PassTile<Direction::x, Threads> x{};
  PassTile<Direction::z, Threads> z{};
  x.input.shape = shape;
  z.input.shape = shape;
  return std::max(x.tile_count(), z.tile_count());
}

constexpr int pass_threads = 128;

/// Blocks of the kernel with a barrier a pass that fit on the device at once.
int resident_pass_blocks(int multiprocessors) {
  return resident_blocks(reinterpret_cast<const void*>(persistent_passes_kernel<pass_threads>), pass_threads,
                         multiprocessors);
}

/// A barrier a pass where every pass tile has a resident block (small grids) and the pass
/// tiles make the boundaries' ghost cells.
bool fused_passes_fit(const PersistentSteps& steps, int multiprocessors) {
  if (!pass_tile_makes(steps.boundaries)) return false;
  return pass_tiles<pass_threads>(steps.state.shape.nx, steps.state.shape.nz) <= resident_pass_blocks(multiprocessors);
}

}  // namespace

PersistentGrid persistent_grid(const PersistentSteps& steps) {
  const int nx = steps.state.shape.nx, nz = steps.state.shape.nz;
  int device = 0, cooperative = 0;
  PersistentGrid grid;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "cudaDeviceGetAttribute");
  check_cuda(cudaDeviceGetAttribute(&grid.multiprocessors, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute");
  if (cooperative == 0) refuse("the device does not support cooperative launches (cudaDevAttrCooperativeLaunch is 0)");
  if (fused_passes_fit(steps, grid.multiprocessors)) {
    grid.barrier_a_pass = true;
    grid.block_threads = pass_threads;
    grid.blocks = std::min(pass_tiles<pass_threads>(nx, nz), resident_pass_blocks(grid.multiprocessors));
    return grid;
  }
  grid.block_threads = largest_block;
  for (const int threads : block_sizes) {
    const int tiles =
        with_block_threads(threads, [&](auto t) { return tiles_of_larger_pass<decltype(t)::value>(nx, nz); });
    if (tiles <= grid.multiprocessors) {
      grid.block_threads = threads;
      break;
    }
  }
  const int resident = with_block_threads(grid.block_threads, [&](auto t) {
    constexpr int threads = decltype(t)::value;
    return resident_blocks(reinterpret_cast<const void*>(persistent_steps_kernel<threads>), threads,
                           grid.multiprocessors);
  });
  if (resident == 0)
    refuse("no block of " + std::to_string(grid.block_threads) +
           " threads fits on a multiprocessor (registers or shared memory), so the blocks cannot all be resident");
  grid.blocks = std::min(resident, with_block_threads(grid.block_threads, [&](auto t) {
                           return tiles_of_larger_pass<decltype(t)::value>(nx, nz);
                         }));
  return grid;
}

void run_persistent_steps(const Stream& stream, const PersistentSteps& steps_args, const PersistentGrid& grid,
                          int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  cudaError_t launched = cudaSuccess;
  if (grid.barrier_a_pass) {
    PersistentPasses<pass_threads> kernels{steps_args, {}, {}};
    for (int slot = 0; slot < 2; ++slot) make_passes(steps_args, slot, kernels);
    void* kernel_args[] = {&kernels, &steps};
    launched = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_passes_kernel<pass_threads>),
                                           dim3(grid.blocks), dim3(pass_threads), kernel_args, 0, stream.cuda_stream);
  } else {
    launched = with_block_threads(grid.block_threads, [&](auto t) {
      constexpr int threads = decltype(t)::value;
      PersistentKernels<threads> kernels{steps_args, {}, {}};
      for (int slot = 0; slot < 2; ++slot) {
        make_stages(steps_args, slot, kernels.x[slot]);
        make_stages(steps_args, slot, kernels.z[slot]);
      }
      void* kernel_args[] = {&kernels, &steps};
      return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_steps_kernel<threads>),
                                         dim3(grid.blocks), dim3(threads), kernel_args, 0, stream.cuda_stream);
    });
  }
  if (launched == cudaErrorCooperativeLaunchTooLarge)
    refuse(std::to_string(grid.blocks) + " blocks do not fit at once (another process may hold part of the GPU)");
  check_cuda(launched, "persistent_steps_kernel");
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
