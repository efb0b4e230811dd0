#pragma once
/// Where a tile of a tiled kernel lies: its first cell and how many cells it has (fewer than a
/// full tile at the far edges of the box).
#include "kernels/backend/host_device.hpp"
#include "kernels/backend/index_box.hpp"

namespace simapp {

struct TileOrigin {
  int i0 = 0, k0 = 0;  ///< the tile's first cell
  int ni = 0, nk = 0;  ///< its cells along x and z
};

/// A tile of one layer of a 3-D box, tiled plane by plane: the plane's tile and the index of the
/// layer (the third axis) it lies in.
struct LayerTileOrigin : TileOrigin {
  int layer = 0;
};

/// The layers [lo, hi) of a box tiled plane by plane.
struct LayerRange {
  int lo = 0, hi = 0;
  SIMAPP_HOST_DEVICE int size() const { return hi > lo ? hi - lo : 0; }
};

/// Tiles of `size` cells needed for `cells` cells.
SIMAPP_HOST_DEVICE inline int tile_count(int cells, int size) { return (cells + size - 1) / size; }

/// Tile (tx, tz) of tiles of tile_x × tile_z cells over `box`.
SIMAPP_HOST_DEVICE inline TileOrigin tile_origin(const IndexBox& box, int tx, int tz, int tile_x, int tile_z) {
  const int i0 = box.i_lo + tx * tile_x;
  const int k0 = box.k_lo + tz * tile_z;
  const int ni = box.i_hi - i0 < tile_x ? box.i_hi - i0 : tile_x;
  const int nk = box.k_hi - k0 < tile_z ? box.k_hi - k0 : tile_z;
  return {i0, k0, ni, nk};
}

}  // namespace simapp
