#pragma once
/// One rank's interior cells: extent and the global index of its first cell. The 2-D model's
/// boxes have ny = 1 and j_offset = 0.

namespace simapp {

struct RankBox {
  int nx = 0, nz = 0;
  int i_offset = 0, k_offset = 0;
  int ny = 1;        ///< cells in y (the 3-D model)
  int j_offset = 0;  ///< the global y index of the first cell
};

}  // namespace simapp
