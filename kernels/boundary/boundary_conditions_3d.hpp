#pragma once
/// The boundary conditions of the six sides of a 3-D domain (or of a rank's box): the x and z
/// sides as in the 2-D model, and the y sides (periodic, or exchanged with a neighbour rank).
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/boundary_conditions.hpp"

namespace simapp {

struct BoundaryConditions3d {
  BoundaryConditions xz;  ///< x and z sides, and the inflow profile of an x side
  BoundaryCondition y_low, y_high;
};

/// The 3-D domain of a case whose x–z sides are `xz`: y periodic.
SIMAPP_HOST_DEVICE constexpr BoundaryConditions3d periodic_in_y(const BoundaryConditions& xz) {
  return {xz, {BoundaryKind::periodic}, {BoundaryKind::periodic}};
}

}  // namespace simapp
