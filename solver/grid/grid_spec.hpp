#pragma once
/// The global grid as configured (grid.*).

namespace simapp {

struct GridSpec {
  int nx = 400;          ///< cells in x
  int nz = 200;          ///< cells in z
  double xlen = 2.0e4;   ///< domain width, m
  double zlen = 1.0e4;   ///< domain height, m
};

}  // namespace simapp
