#pragma once
/// What the kernels of a stage need besides its arrays.
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// What a stage's kernels need besides the arrays: geometry, the step's parameters (read on
/// the device at run time) with the stage's own, and the background (which depends on z only).
template <int Dims>
struct FluxContext {
  CellGeometry<Dims> geometry;
  HydrostaticView background;
  const StepParams<Dims>* params = nullptr;
  int stage = 0;  ///< the RK3 stage, 0..2

  SIMAPP_HOST_DEVICE const StageParams& stage_params() const { return params->stage[stage]; }
};

}  // namespace simapp
