#pragma once
/// Where this rank's cells are in the 3-D model: the x–z geometry of the 2-D model and the y
/// axis, y_j = (j_offset + j + ½) dy.
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

struct CellGeometry3d {
  CellGeometry xz;    ///< dx, dz, the domain's width and height, the x and z offsets
  double dy = 0.0;    ///< m
  double ylen = 0.0;  ///< global domain depth, m
  int global_ny = 0;
  int j_offset = 0;  ///< global index of local cell j = 0

  SIMAPP_HOST_DEVICE double y_center(int j) const { return (j_offset + j + 0.5) * dy; }
};

}  // namespace simapp
