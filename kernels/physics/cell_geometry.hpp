#pragma once
/// Where this rank's cells are: spacing and the global index of its first interior cell, in the
/// model of `Dims` dimensions. Cell centres x_i = (i_offset + i + ½) dx, z_k = (k_offset + k + ½) dz,
/// and in 3-D y_j = (j_offset + j + ½) dy.
#include "kernels/backend/host_device.hpp"

namespace simapp {

template <int Dims>
struct CellGeometry;

/// The x–z geometry, which the 3-D model's extends by the y axis.
template <>
struct CellGeometry<2> {
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

template <>
struct CellGeometry<3> : CellGeometry<2> {
  double dy = 0.0;    ///< m
  double ylen = 0.0;  ///< global domain depth, m
  int global_ny = 0;
  int j_offset = 0;  ///< global index of local cell j = 0

  SIMAPP_HOST_DEVICE double y_center(int j) const { return (j_offset + j + 0.5) * dy; }
};

}  // namespace simapp
