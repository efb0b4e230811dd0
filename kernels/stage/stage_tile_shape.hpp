#pragma once
/// The tile of a stage kernel (2-D and 3-D alike): a block's `Threads` threads, one for each face
/// of the tile. A pass along the tile's rows (x) has tiles of Threads / 4 − 1 cells along them and 4
/// rows (96 × 4 faces with 384 threads), two ghost columns a side; a pass across them (z, and the
/// 3-D model's y) tiles of 32 cells along the rows and Threads / 32 − 1 rows (32 × 12 faces), two
/// ghost rows a side. With 384 threads: 95 × 4 and 32 × 11 cells; 256: 63 × 4, 32 × 7; 128: 31 × 4,
/// 32 × 3; 64: 15 × 4, 32 × 1.
namespace simapp {

/// Real: the state's type (double or float).
template <class Real, bool AlongRows, int Threads, int Vars>
struct StageTileShape {
  static_assert(Threads % 32 == 0 && Threads >= 64, "whole warps, 64 threads or more");
  static constexpr int tile_x = AlongRows ? Threads / 4 - 1 : 32;
  static constexpr int tile_z = AlongRows ? 4 : Threads / 32 - 1;  ///< rows: along z (or the 3-D model's j)
  /// Registers for 1152 threads a multiprocessor with 384-thread blocks (56 a thread, no spills),
  /// 1024 with 256 (64): the shape chosen by measurement,
  /// docs/performance/journal/2026-12-01-block-shape.md.
  static constexpr int min_blocks_per_sm = Threads == 384 ? 3 : 4;
  static constexpr int halo_x = AlongRows ? 2 : 0;
  static constexpr int halo_z = AlongRows ? 0 : 2;
  static constexpr int faces_x = AlongRows ? 1 : 0;
  static constexpr int faces_z = AlongRows ? 0 : 1;

  struct Tile {
    Real q[Vars][tile_z + 2 * halo_z][tile_x + 2 * halo_x];  ///< stage input, ghosts included
    Real flux[Vars][tile_z + faces_z][tile_x + faces_x];
    Real init[Vars][tile_z][tile_x];  ///< the step's initial state at the tile's cells
  };
};

}  // namespace simapp
