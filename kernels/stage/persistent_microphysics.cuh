#pragma once
/// The microphysics as an element of the persistent kernel (the step programs' is
/// solver/step/microphysics_element.*): after the steps of physics.microphysics_every
/// (PersistentSteps::microphysics.every) and the run's last, every column over the time since its
/// last run (StepParams::dt_physics of the step, which StepValues::write sets), then a grid
/// barrier; it runs before the health check, as in step_elements(). CUDA only.
#include <cooperative_groups.h>

#include <cstdint>

#include "kernels/microphysics/microphysics_column.hpp"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/cadence.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp::persistent {

namespace cg = cooperative_groups;

/// The microphysics of every column of `m` over dt: a thread a column (microphysics_column, the
/// microphysics kernel's work on a column, with its bits), the grid's threads taking the columns
/// in turn.
template <int Dims>
__device__ void microphysics_of_every_column(const MicrophysicsArguments<Dims>& m, double dt) {
  const int nx = m.state.shape.nx;
  const int columns = nx * m.state.shape.ny;
  const int threads = static_cast<int>(gridDim.x * blockDim.x);
  for (int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); c < columns; c += threads)
    microphysics_column(m, dt, c % nx, c / nx);
}

template <int Dims>
struct MicrophysicsElement {
  const PersistentSteps<Dims>& steps;
  cg::grid_group& grid;

  __device__ bool follows(std::int64_t step) const {
    return element_follows(steps.microphysics.every, step, steps.schedule.num_steps);
  }
  /// Never stops the launch.
  __device__ bool run(std::int64_t step) const {
    microphysics_of_every_column(steps.microphysics, steps.params[parity_index(parity_of(step))].dt_physics);
    grid.sync();
    return false;
  }
};

}  // namespace simapp::persistent
