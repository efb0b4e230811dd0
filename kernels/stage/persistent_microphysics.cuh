#pragma once
/// The microphysics as an element of the persistent kernel (the step programs' is
/// solver/step/microphysics_element.*): after the steps of physics.microphysics_every
/// (PersistentSteps::microphysics.every) and the run's last, every column over the time since its
/// last run (StepParams::dt_physics of the step, which StepValues::write sets), then a barrier of
/// the kernel's blocks; it runs before the health check, as in step_elements(). CUDA only.
#include <cooperative_groups.h>

#include <cstdint>

#include "kernels/microphysics/microphysics_levels.cuh"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/cadence.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp::persistent {

namespace cg = cooperative_groups;

/// The microphysics of every column of `m` over dt, with the microphysics kernel's bits
/// (microphysics.cpp): where the grid's blocks take at most two groups of 32 columns each, a block
/// takes a group's levels at once (microphysics_levels, a warp a level of a chunk); else a thread a
/// column (microphysics_column), the grid's threads taking the columns in turn. `BlockWarps`: the
/// warps of the kernel's blocks at most.
template <int BlockWarps, int Dims, class Real>
__device__ void microphysics_of_every_column(const MicrophysicsArguments<Dims, Real>& m, double dt) {
  const int nx = m.state.shape.nx;
  const int columns = nx * m.state.shape.ny;
  const int groups = level_groups(columns);
  if (groups <= 2 * static_cast<int>(gridDim.x)) {
    __shared__ LevelGroupShared<BlockWarps> shared;
    const int thread = static_cast<int>(threadIdx.x);
    const LevelGroupThread t{thread % level_group_columns, thread / level_group_columns,
                             static_cast<int>(blockDim.x) / level_group_columns};
    for (int g = static_cast<int>(blockIdx.x); g < groups; g += static_cast<int>(gridDim.x))
      microphysics_levels(m, dt, g * level_group_columns, t, shared);
    return;
  }
  const int threads = static_cast<int>(gridDim.x * blockDim.x);
  for (int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); c < columns; c += threads)
    microphysics_column(m, dt, c % nx, c / nx);
}

/// `Group`: the kernel's blocks (cg::grid_group or cg::cluster_group), of `BlockWarps` warps at most.
template <int Dims, class Real, class Group, int BlockWarps>
struct MicrophysicsElement {
  const PersistentSteps<Dims, Real>& steps;
  Group& grid;

  __device__ bool follows(std::int64_t step) const {
    return element_follows(steps.microphysics.every, step, steps.schedule.num_steps);
  }
  /// Never stops the launch.
  __device__ bool run(std::int64_t step) const {
    microphysics_of_every_column<BlockWarps>(steps.microphysics,
                                             steps.params[parity_index(parity_of(step))].dt_physics);
    grid.sync();
    return false;
  }
};

}  // namespace simapp::persistent
