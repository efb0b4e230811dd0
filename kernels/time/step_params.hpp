#pragma once
/// Values that change from step to step, read by kernels through a fixed device pointer so
/// that a captured graph never needs re-capturing when they change.

namespace simapp {

struct StepParams {
  double dt = 0.0;  ///< this step's time step, s (shorter on a final partial step)
};

}  // namespace simapp
