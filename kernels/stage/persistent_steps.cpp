#include "kernels/stage/persistent_steps.hpp"

#include <algorithm>
#include <string>

#include "kernels/backend/error.hpp"
#include "kernels/backend/launch_counter.hpp"

#if defined(__CUDACC__)
#include <cooperative_groups.h>

#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/stage/stage_tile.hpp"
#endif

namespace simapp {

#if defined(__CUDACC__)

namespace {

namespace cg = cooperative_groups;

using StageX = StageKernel<Direction::x>;
using StageZ = StageKernel<Direction::z>;

constexpr int block_threads = 256;
static_assert(tile_threads_x<StageX> * tile_threads_z<StageX> == block_threads &&
                  tile_threads_x<StageZ> * tile_threads_z<StageZ> == block_threads,
              "both passes' tiles have a thread per face in a block of 256");
/// Blocks a multiprocessor holds: four (64 registers a thread, as the stage kernels, some
/// spilled) where the grid has tiles for them, else two (128 registers, no spills): small
/// grids have a block per tile either way and gain from shorter latency.
constexpr int many_blocks_per_sm = std::min(StageX::min_blocks_per_sm, StageZ::min_blocks_per_sm);
constexpr int few_blocks_per_sm = 2;

/// The block's shared memory: one pass's tile at a time.
union SharedTile {
  StageX::Tile x;
  StageZ::Tile z;
};

template <Direction D>
__device__ typename StageKernel<D>::Tile& tile_of(SharedTile& shared) {
  if constexpr (D == Direction::x)
    return shared.x;
  else
    return shared.z;
}

/// The kernel's parameter: the steps' arguments and every stage kernel, per StepParams slot
/// (step parity) and RK3 stage.
struct PersistentKernels {
  PersistentSteps steps;
  StageX x[2][rk_stages];
  StageZ z[2][rk_stages];

  template <Direction D>
  __device__ const StageKernel<D>& stage(int slot, int s) const {
    if constexpr (D == Direction::x)
      return x[slot][s];
    else
      return z[slot][s];
  }
};

/// The stage kernels of slot `slot`: qⁿ → q* → q** → qⁿ⁺¹ for each pass, reading its StepParams.
template <Direction D>
void make_stages(const PersistentSteps& p, int slot, StageKernel<D> (&stages)[rk_stages]) {
  const FieldView<double> input[rk_stages] = {p.state, p.stage1, p.stage2};
  const FieldView<double> output[rk_stages] = {p.stage1, p.stage2, p.state};
  const GhostRules ghosts{true, HaloSides{true, true}, p.injection};
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{p.state, input[s], output[s]}, FluxContext{p.geometry, p.background, p.params + slot, s},
                 p.wave_source, ghosts};
}

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D>
__device__ void stage_over_tiles(const StageKernel<D>& kernel, SharedTile& shared) {
  using Kernel = StageKernel<D>;
  const IndexBox cells{0, kernel.arrays.out.shape.nx, 0, kernel.arrays.out.shape.nz};
  const int tiles_x = tile_count(cells.width(), Kernel::tile_x);
  const int tiles = tiles_x * tile_count(cells.height(), Kernel::tile_z);
  const int a0 = static_cast<int>(threadIdx.x) % tile_threads_x<Kernel>;
  const int b0 = static_cast<int>(threadIdx.x) / tile_threads_x<Kernel>;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x))
    run_tile_in_block(kernel, tile_of<D>(shared),
                      tile_origin(cells, t % tiles_x, t / tiles_x, Kernel::tile_x, Kernel::tile_z), a0, b0);
}

/// The three RK3 stages of a split pass, a grid barrier after each.
template <Direction D>
__device__ void split_pass(const PersistentKernels& k, int slot, SharedTile& shared, cg::grid_group& grid) {
#pragma unroll
  for (int s = 0; s < rk_stages; ++s) {
    stage_over_tiles(k.stage<D>(slot, s), shared);
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
  p.params[slot_of(step)] = step_params(p.schedule.dt_of(step), p.schedule.dx, p.schedule.dz);
}

template <int MinBlocksPerSm>
__global__ void __launch_bounds__(block_threads, MinBlocksPerSm)
    persistent_steps_kernel(const __grid_constant__ PersistentKernels k, int steps) {
  __shared__ SharedTile shared;
  const PersistentSteps& p = k.steps;
  cg::grid_group grid = cg::this_grid();
  const std::int64_t completed = p.clock->completed;  // written below only after the last barrier
  if (grid.thread_rank() == 0) write_step_params(p, completed + 1);
  grid.sync();
  int done = 0;
  while (done < steps) {
    const std::int64_t step = completed + done + 1;
    // The other slot was last read in the step before, which every block has finished.
    if (grid.thread_rank() == 0 && done + 1 < steps) write_step_params(p, step + 1);
    const int slot = slot_of(step);
    if (slot == 0) {
      split_pass<Direction::x>(k, slot, shared, grid);
      split_pass<Direction::z>(k, slot, shared, grid);
    } else {
      split_pass<Direction::z>(k, slot, shared, grid);
      split_pass<Direction::x>(k, slot, shared, grid);
    }
    ++done;
    if (checks_after(done - 1, steps, p.check_every) && health_check_failed(p, grid)) break;
  }
  if (grid.thread_rank() == 0) p.clock->completed = completed + done;
}

int tiles_of_larger_pass(int nx, int nz) {
  return std::max(tile_count(nx, StageX::tile_x) * tile_count(nz, StageX::tile_z),
                  tile_count(nx, StageZ::tile_x) * tile_count(nz, StageZ::tile_z));
}

[[noreturn]] void refuse(const std::string& reason) {
  throw Error(ExitCode::bad_input, "execution.mode", "persistent cannot run on this GPU: " + reason);
}

/// The kernel a grid runs (PersistentGrid::few_blocks).
const void* kernel_for(const PersistentGrid& grid) {
  return grid.few_blocks ? reinterpret_cast<const void*>(persistent_steps_kernel<few_blocks_per_sm>)
                         : reinterpret_cast<const void*>(persistent_steps_kernel<many_blocks_per_sm>);
}

}  // namespace

PersistentGrid persistent_grid(int nx, int nz) {
  int device = 0, cooperative = 0;
  PersistentGrid grid;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "cudaDeviceGetAttribute");
  check_cuda(cudaDeviceGetAttribute(&grid.multiprocessors, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute");
  if (cooperative == 0) refuse("the device does not support cooperative launches (cudaDevAttrCooperativeLaunch is 0)");
  grid.few_blocks = tiles_of_larger_pass(nx, nz) <= few_blocks_per_sm * grid.multiprocessors;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&grid.blocks_per_multiprocessor, kernel_for(grid),
                                                            block_threads, 0),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (grid.blocks_per_multiprocessor == 0)
    refuse("no block of " + std::to_string(block_threads) +
           " threads fits on a multiprocessor (registers or shared memory), so the blocks cannot all be resident");
  grid.blocks = std::min(grid.blocks_per_multiprocessor * grid.multiprocessors, tiles_of_larger_pass(nx, nz));
  return grid;
}

void run_persistent_steps(const Stream& stream, const PersistentSteps& steps_args, const PersistentGrid& grid,
                          int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  PersistentKernels kernels{steps_args, {}, {}};
  for (int slot = 0; slot < 2; ++slot) {
    make_stages(steps_args, slot, kernels.x[slot]);
    make_stages(steps_args, slot, kernels.z[slot]);
  }
  void* kernel_args[] = {&kernels, &steps};
  const cudaError_t launched =
      cudaLaunchCooperativeKernel(kernel_for(grid), dim3(grid.blocks), dim3(block_threads), kernel_args, 0,
                                  stream.cuda_stream);
  if (launched == cudaErrorCooperativeLaunchTooLarge)
    refuse(std::to_string(grid.blocks) + " blocks do not fit at once (another process may hold part of the GPU)");
  check_cuda(launched, "persistent_steps_kernel");
}

#else

PersistentGrid persistent_grid(int, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

void run_persistent_steps(const Stream&, const PersistentSteps&, const PersistentGrid&, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

#endif

}  // namespace simapp
