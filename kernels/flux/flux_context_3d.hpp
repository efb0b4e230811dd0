#pragma once
/// What the kernels of a 3-D stage need besides its arrays.
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry_3d.hpp"
#include "kernels/time/step_params_3d.hpp"

namespace simapp {

/// What a 3-D stage's kernels need besides the arrays: geometry, the step's parameters (read on
/// the device at run time), the stage and the background (which depends on z only).
struct FluxContext3d {
  CellGeometry3d geometry;
  HydrostaticView background;
  const StepParams3d* params = nullptr;
  int stage = 0;  ///< the RK3 stage, 0..2
};

}  // namespace simapp
