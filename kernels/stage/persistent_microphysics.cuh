#pragma once
/// The microphysics as an element of the persistent kernel (the step programs' is
/// solver/step/microphysics_element.*): after the steps of physics.microphysics_every
/// (PersistentSteps::microphysics.every) and the run's last, every column over the time since its
/// last run (StepParams::dt_physics of the step, which StepValues::write sets), then a grid
/// barrier; it runs before the health check, as in step_elements(). CUDA only.
#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>

#include "kernels/microphysics/microphysics_block.cuh"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/cadence.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp::persistent {

namespace cg = cooperative_groups;

/// The microphysics of every column of `m` over dt: a block a column, the grid's blocks taking the
/// columns in turn (run_microphysics_of_column, the microphysics kernel's work on a column, with
/// its bits). The column's values lie in the block's `shared` memory of `shared_doubles` doubles
/// where they fit (the kernel's tile memory, free between passes), else in m.scratch.
template <int Dims>
__device__ void microphysics_of_every_column(const MicrophysicsArguments<Dims>& m, double dt, double* shared,
                                             std::size_t shared_doubles) {
  const int nx = m.state.shape.nx;
  const int columns = nx * m.state.shape.ny;
  double* values = microphysics_shared_doubles(m.state.shape.nz) <= shared_doubles ? shared : nullptr;
  for (int c = static_cast<int>(blockIdx.x); c < columns; c += static_cast<int>(gridDim.x))
    run_microphysics_of_column(m, dt, c % nx, c / nx, values);
}

template <int Dims>
struct MicrophysicsElement {
  const PersistentSteps<Dims>& steps;
  cg::grid_group& grid;
  double* shared = nullptr;  ///< the block's tile memory
  std::size_t shared_doubles = 0;

  __device__ bool follows(std::int64_t step) const {
    return element_follows(steps.microphysics.every, step, steps.schedule.num_steps);
  }
  /// Never stops the launch.
  __device__ bool run(std::int64_t step) const {
    microphysics_of_every_column(steps.microphysics, steps.params[parity_index(parity_of(step))].dt_physics, shared,
                                 shared_doubles);
    grid.sync();
    return false;
  }
};

}  // namespace simapp::persistent
