#pragma once
/// The health check as an element of the persistent kernel (the step programs' is
/// solver/step/health_check_element.*): after the steps of execution.check_every
/// (PersistentSteps::check_every), every cell checked into the record, a barrier, then the
/// check counted; a failed check stops the launch after its step. With a barrier a pass, where no
/// microphysics ran after the step (it changes the cells after the pass), each tile of the step's
/// last pass has checked its own cells already (`cells_checked`), and only the count is left.
/// CUDA only.
#include <cooperative_groups.h>

#include <cstdint>

#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/cadence.hpp"

namespace simapp::persistent {

namespace cg = cooperative_groups;

/// After a barrier of the kernel's blocks (`Group`: the grid's or the cluster's) that follows
/// every cell's check into p.record: counts the check; true when a check has failed (every block
/// sees the same record after the barrier, so all of them stop together). The host mirror is written when a check
/// fails: the host reads nothing else from it (HealthMonitor::failure), so no check but a failed one writes to host
/// memory.
template <class Steps, class Group>
__device__ bool count_check(const Steps& p, const Group& grid) {
  const bool failed = *static_cast<volatile std::int64_t*>(&p.record->failed_check) >= 0;
  if (grid.thread_rank() == 0) {  // others read checks_run again only after later barriers
    p.record->checks_run += 1;
    if (failed) *p.mirror = *p.record;
  }
  return failed;
}

/// Checks every cell, waits for every block's checks, then counts the check; true when a check
/// has failed.
template <int Dims, class Real, class Group>
__device__ bool check_every_cell(const PersistentSteps<Dims, Real>& p, Group& grid) {
  const FieldShape<Dims>& shape = p.state.shape;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  if constexpr (Dims == 3) {
    const long layer = static_cast<long>(shape.nx) * shape.ny;
    const long cells = layer * shape.nz;
    for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
      check_cell_health(p.state, p.background, p.geometry, p.record, static_cast<int>(c / layer),
                        static_cast<int>(c % layer / shape.nx), static_cast<int>(c % shape.nx));
  } else {
    const int nx = shape.nx;
    const long cells = static_cast<long>(nx) * shape.nz;
    for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
      check_cell_health(p.state, p.background, p.geometry, p.record, static_cast<int>(c / nx), 0,
                        static_cast<int>(c % nx));
  }
  grid.sync();
  return count_check(p, grid);
}

/// `Group`: the kernel's blocks (cg::grid_group or cg::cluster_group), whose barrier ends the check.
template <int Dims, class Real, class Group>
struct HealthCheckElement {
  const PersistentSteps<Dims, Real>& steps;
  Group& grid;
  const bool& cells_checked;  ///< each tile of the step's last pass checked its own cells (set each step)

  __device__ bool follows(std::int64_t step) const {
    return element_follows(steps.check_every, step, steps.schedule.num_steps);
  }
  /// True when the check has failed.
  __device__ bool run(std::int64_t /*step*/) const {
    return cells_checked ? count_check(steps, grid) : check_every_cell(steps, grid);
  }
};

}  // namespace simapp::persistent
