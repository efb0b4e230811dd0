#pragma once
/// A step measured op by op against the device's memory bandwidth: the time of each kernel
/// (CUDA events or the host clock, launched one at a time), the bytes it must move (its
/// own accounting, solver/step/kernel_traffic.hpp), and the bandwidth a plain copy reaches
/// on the same device, so each kernel can be set against the memory floor.
#include <cstddef>
#include <string>
#include <vector>

#include "foundation/sample_summary.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp {

struct OpProfile {
  std::string name;  ///< the op's name in the step program
  OpKind kind = OpKind::kernel;
  double seconds = 0.0;   ///< median over the measured steps
  SampleSummary times;    ///< over the measured steps, s
  std::size_t bytes = 0;  ///< what it must move; 0 where not counted (halo exchange ops)
};

struct StepProfile {
  std::vector<OpProfile> ops;   ///< in program order
  double step_seconds = 0.0;    ///< the ops' medians summed
  SampleSummary step_times;     ///< of each measured step, its ops' times summed, s
  std::size_t step_bytes = 0;   ///< the kernels' bytes summed
  double copy_bandwidth = 0.0;  ///< bytes read and written a second by a device-to-device copy
  long cells = 0;               ///< this rank's interior cells
  int measured_steps = 0;
};

/// Runs `warmup` steps, then measures `steps` steps op by op (they advance the simulation).
StepProfile profile_steps(Simulation& simulation, int warmup, int steps);

/// Bytes a second (read + written) of a copy of `bytes` bytes on `stream`'s device, the best
/// of a few.
double copy_bandwidth(const Stream& stream, std::size_t bytes);

}  // namespace simapp
