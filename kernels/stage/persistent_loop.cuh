#pragma once
/// What the persistent kernels share (persistent_steps.cpp: a barrier a stage and a barrier a
/// pass, each for both models): the loop over a launch's steps, with their StepParams made on
/// the device and the step's elements after the steps of their cadences, and the launch's fit on
/// the device (every block resident, or a bad_input Error naming execution.mode). CUDA only.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "foundation/error.hpp"
#include "kernels/backend/cuda_check.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/loop_clock.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp::persistent {

namespace cg = cooperative_groups;

/// The StepParams of a schedule's two step lengths, worked out on the host for a launch: they
/// depend on dt alone, and every step has dt but the last (dt_last), so the kernel copies one of
/// them into a step's slot instead of working it out every step (a dozen divisions on one
/// thread, which its block waited for).
template <class Params>
struct StepValues {
  Params regular, last;

  /// `make(dt)`: the StepParams of a step of dt.
  template <class Make>
  static StepValues of(const TimeSchedule& schedule, const Make& make) {
    return {make(schedule.dt), make(schedule.dt_last)};
  }

  /// Step n's StepParams into the slot of its parity (odd steps 0, even steps 1), with the time
  /// the microphysics after it integrates over (physics_time_step: 0 where none follows it).
  template <class Steps>
  __device__ void write(const Steps& p, std::int64_t step) const {
    Params params = step == p.schedule.num_steps ? last : regular;
    params.dt_physics = physics_time_step(p.schedule, step);
    p.params[parity_index(parity_of(step))] = params;
  }
};

/// The kernel's loop over `steps` steps after p.clock->completed, `grid` the kernel's blocks
/// (cg::grid_group, or cg::cluster_group for a kernel of one cluster): `step_body(parity, follows)`
/// runs the passes of a step, ending with a barrier of the blocks, where follows[e] says whether
/// elements[e] follows the step (element.follows(step), its cadence); then each of `elements` in
/// turn that follows it runs over the grid (element.run(step), ending with a barrier), and one that
/// returns true stops the launch after that step (the elements after it do not run). A step's StepParams come from
/// `values`, a step ahead, in the slot of its parity.
template <class Steps, class Params, class Group, class Step, class... Elements>
__device__ void run_steps(const Steps& p, const StepValues<Params>& values, int steps, Group& grid,
                          const Step& step_body, const Elements&... elements) {
  const std::int64_t completed = p.clock->completed;  // written below only after the last barrier
  if (grid.thread_rank() == 0) values.write(p, completed + 1);
  grid.sync();
  int done = 0;
  while (done < steps) {
    const std::int64_t step = completed + done + 1;
    // The other slot was last read in the step before, which every block has finished.
    if (grid.thread_rank() == 0 && done + 1 < steps) values.write(p, step + 1);
    const bool follows[] = {elements.follows(step)...};
    step_body(parity_of(step), follows);
    ++done;
    int e = 0;
    if (((follows[e++] && elements.run(step)) || ...)) break;
  }
  if (grid.thread_rank() == 0) p.clock->completed = completed + done;
}

/// Threads a block of the kernel with a barrier a stage: a tile has a face for each
/// (stage_tile_shape.hpp). Small grids take the smallest tiles that still give every block a
/// tile of its own, so that each multiprocessor has less of a stage to do; large grids the
/// stage kernels' tiles.
inline constexpr int block_sizes[] = {64, 128, 256};
inline constexpr int largest_block = 256;

/// Blocks a multiprocessor holds: with the largest tiles four (64 registers a thread, as the
/// stage kernels), else two (up to 128 registers, no spills): those grids have a block per
/// tile either way.
template <int Threads>
inline constexpr int min_blocks_per_sm = Threads == largest_block ? 4 : 2;

/// Threads a block of the kernel with a barrier a pass (pass_tile.hpp): a tile's team.
inline constexpr int pass_threads = 128;

/// Teams of pass_threads threads a block of the kernel on one cluster: three tiles at once a
/// multiprocessor, as the grid kernel's blocks a multiprocessor in 3-D (up to 168 registers a thread).
inline constexpr int cluster_teams = 3;

inline constexpr int warp_threads = 32;

/// Blocks a cluster holds at most (a non-portable size; 8 is portable).
inline constexpr int largest_cluster = 16;

/// Calls f with std::integral_constant<int, threads> for a size of block_sizes.
template <class F>
decltype(auto) with_block_threads(int threads, F&& f) {
  switch (threads) {
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    default: return f(std::integral_constant<int, 256>{});
  }
}

/// `mode` (persistent or persistent_cluster) cannot run here, for `reason`.
[[noreturn]] inline void refuse(const char* mode, const std::string& reason) {
  throw Error(ExitCode::bad_input, "execution.mode", std::string(mode) + " cannot run here: " + reason);
}

[[noreturn]] inline void refuse(const std::string& reason) { refuse("persistent", reason); }

/// The current device's multiprocessors; refused where it has no cooperative launches.
inline int cooperative_multiprocessors() {
  int cooperative = 0;
  check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device::current_device()),
             "cudaDeviceGetAttribute");
  if (cooperative == 0) refuse("the device does not support cooperative launches (cudaDevAttrCooperativeLaunch is 0)");
  return device::multiprocessor_count();
}

/// Blocks of `kernel` with `threads` threads that fit on the device at once.
inline int resident_blocks(const void* kernel, int threads, int multiprocessors) {
  int per_multiprocessor = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, 0),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return per_multiprocessor * multiprocessors;
}

/// The launch shape on the current device for a step of `passes` split passes. A barrier a pass where the pass tiles
/// make the boundaries' ghost cells and carry the state's tracers (`pass_tiles_make`; else `pass_kernel` may be null)
/// and each of the `pass_tiles` tiles has a resident block of `pass_kernel`; else a barrier a stage, with the smallest
/// block of block_sizes whose largest stage has no more tiles than the device has multiprocessors
/// (`stage_tiles(threads)`, threads an std::integral_constant), and as many blocks of `stage_kernel(threads)` as fit at
/// once, up to a tile each.
template <class StageTiles, class StageKernelOf>
PersistentGrid choose_grid(int passes, bool pass_tiles_make, int pass_tiles, const void* pass_kernel,
                           const StageTiles& stage_tiles, const StageKernelOf& stage_kernel) {
  PersistentGrid grid;
  grid.multiprocessors = cooperative_multiprocessors();
  if (pass_tiles_make && pass_tiles <= resident_blocks(pass_kernel, pass_threads, grid.multiprocessors)) {
    grid.barrier_a_pass = true;
    grid.barriers_per_step = passes;
    grid.block_threads = pass_threads;
    grid.blocks = pass_tiles;
    return grid;
  }
  grid.barriers_per_step = passes * rk_stages;
  grid.block_threads = largest_block;
  for (const int threads : block_sizes)
    if (with_block_threads(threads, stage_tiles) <= grid.multiprocessors) {
      grid.block_threads = threads;
      break;
    }
  const int resident = with_block_threads(grid.block_threads, [&](auto threads) {
    return resident_blocks(stage_kernel(threads), decltype(threads)::value, grid.multiprocessors);
  });
  if (resident == 0)
    refuse("no block of " + std::to_string(grid.block_threads) +
           " threads fits on a multiprocessor (registers or shared memory), so the blocks cannot all be resident");
  grid.blocks = std::min(resident, with_block_threads(grid.block_threads, stage_tiles));
  return grid;
}

/// A cluster kernel's launch configuration: one cluster of `blocks` blocks of `threads` threads,
/// `shared` bytes of dynamic shared memory each, on `stream`.
struct ClusterConfig {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute cluster{};

  ClusterConfig(int blocks, int threads, std::size_t shared, cudaStream_t stream) {
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = blocks;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
};

/// The launch shape of `kernel` (blocks of cluster_teams × pass_threads threads, `shared` bytes of
/// dynamic shared memory) on one cluster of the current device for a step of `passes` passes whose
/// largest has `pass_tiles` tiles: a block for each cluster_teams tiles, at most the largest
/// cluster the device runs (largest_cluster, 16 multiprocessors on an H100). Refused where the device has no
/// clusters or no cluster of such blocks fits (the state's fit in the L2 cache is the executor's
/// check, why_mode_cannot_run).
inline PersistentGrid cluster_grid(int passes, int pass_tiles, const void* kernel, std::size_t shared) {
  constexpr const char* mode = "persistent_cluster";
  if (!device::has_thread_block_clusters())
    refuse(mode,
           "the device has no thread-block clusters (compute capability 9.0 or newer; cudaDevAttrClusterLaunch is 0)");
  const int threads = cluster_teams * pass_threads;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
             "cudaFuncSetAttribute");
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "cudaFuncSetAttribute");
  // The blocks the largest pass's tiles need, fewer while no such cluster fits (more than 8 blocks
  // is a non-portable size: 16 on an H100).
  int blocks = std::min(largest_cluster, (pass_tiles + cluster_teams - 1) / cluster_teams);
  for (; blocks > 0; --blocks) {
    const ClusterConfig probe(blocks, threads, shared, nullptr);
    int at_once = 0;
    if (cudaOccupancyMaxActiveClusters(&at_once, kernel, &probe.config) == cudaSuccess && at_once > 0) break;
    (void)cudaGetLastError();  // a size the device refuses
  }
  if (blocks == 0)
    refuse(mode, "no cluster of blocks of " + std::to_string(threads) + " threads and " +
                     std::to_string(shared / 1024) + " KB of shared memory fits on the device");
  PersistentGrid grid;
  grid.residency = Residency::cluster;
  grid.multiprocessors = device::multiprocessor_count();
  grid.barrier_a_pass = true;
  grid.barriers_per_step = passes;
  grid.block_threads = threads;
  grid.blocks = blocks;
  grid.tiles_at_once = grid.blocks * cluster_teams;
  return grid;
}

/// The launch of `kernel` on one cluster of `blocks` blocks, with its parameter block `parameter`
/// and the step count.
template <class Parameter>
void launch_cluster(const void* kernel, int blocks, std::size_t shared, Parameter& parameter, int steps,
                    cudaStream_t stream) {
  void* kernel_args[] = {&parameter, &steps};
  const ClusterConfig launch(blocks, cluster_teams * pass_threads, shared, stream);
  check_cuda(cudaLaunchKernelExC(&launch.config, kernel, kernel_args), "persistent_cluster kernel");
}

/// The cooperative launch of `kernel` with its parameter block `parameter` and the step count.
template <class Parameter>
void launch(const void* kernel, int blocks, int threads, Parameter& parameter, int steps, cudaStream_t stream) {
  void* kernel_args[] = {&parameter, &steps};
  const cudaError_t launched = cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(threads), kernel_args, 0, stream);
  if (launched == cudaErrorCooperativeLaunchTooLarge)
    refuse(std::to_string(blocks) + " blocks do not fit at once (another process may hold part of the GPU)");
  check_cuda(launched, "persistent_steps_kernel");
}

}  // namespace simapp::persistent
