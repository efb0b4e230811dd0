#pragma once
/// The cadence of a step element (the health check, and whatever follows a step): an element of
/// cadence `every` follows each multiple of `every` steps and the run's last step, nowhere else;
/// `every` 0: never. The rule names global steps (1-based, the run's own numbering), never steps
/// of a chunk, so that what an element finds does not depend on how the run is cut into chunks
/// (steps per graph, which the rank count decides through MPI halos, outputs, progress lines, the
/// mode): the step programs (solver/step/cadence.hpp) and the persistent kernel follow it alike.
#include <cstdint>

#include "kernels/backend/host_device.hpp"

namespace simapp {

/// Whether an element of cadence `every` follows step `step` of a run of `num_steps` steps.
SIMAPP_HOST_DEVICE inline bool element_follows(int every, std::int64_t step, std::int64_t num_steps) {
  return every > 0 && (step % every == 0 || step == num_steps);
}

}  // namespace simapp
