#pragma once
/// Where this rank's cells are: spacing and the global index of its first interior cell.
/// Cell centres x_i = (i_offset + i + ½) dx, z_k = (k_offset + k + ½) dz.
#include "kernels/backend/host_device.hpp"

namespace simapp {

struct CellGeometry {
  double dx = 0.0;    ///< m
  double dz = 0.0;    ///< m
  double xlen = 0.0;  ///< global domain width, m
  double zlen = 0.0;  ///< global domain height, m
  int global_nx = 0;
  int global_nz = 0;
  int i_offset = 0;  ///< global index of local cell i = 0
  int k_offset = 0;  ///< global index of local cell k = 0

  SIMAPP_HOST_DEVICE double x_center(int i) const { return (i_offset + i + 0.5) * dx; }
  SIMAPP_HOST_DEVICE double z_center(int k) const { return (k_offset + k + 0.5) * dz; }
};

}  // namespace simapp
