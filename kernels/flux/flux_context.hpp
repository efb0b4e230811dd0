#pragma once
/// What the kernels of a stage need besides its arrays.
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// What a stage's kernels need besides the arrays: geometry, the stage's dt (params->dt /
/// stage_divisor, read on the device at run time) and the background.
struct FluxContext {
  CellGeometry geometry;
  HydrostaticView background;
  const StepParams* params = nullptr;
  double stage_divisor = 1.0;  ///< dt_stage = dt / stage_divisor (3, 2, 1 for RK3)
};

}  // namespace simapp
