#pragma once
/// One rank's interior cells: extent and the global index of its first cell.

namespace simapp {

struct RankBox {
  int nx = 0, nz = 0;
  int i_offset = 0, k_offset = 0;
};

}  // namespace simapp
