#pragma once
/// The tile of a pass tile (either model's: pass_tile.hpp, pass_tile_3d.hpp), the three RK3
/// stages of a split pass on a few lines of cells along the pass, and the phases a block runs
/// on one: a tile of n cells a line loads n + 12 (a margin of 6 a side), computes stage 1 on
/// the middle n + 8, stage 2 on n + 4 and stage 3 on its n.
#include <type_traits>
#include <utility>

#include "kernels/backend/fast_divisor.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp {

/// `Threads` threads a block. A pass along the lines' contiguous direction (x,
/// `AlongRows`): by default tiles of 4 rows × (Threads/4 − 9) cells, a thread per face of a row in
/// the first stage; across it (z, and the 3-D model's y): Threads/16 lines × 7 cells, 16 faces a
/// line in the first stage. `Lines` and `Cells` give a tile of another shape.
template <bool AlongRows, int Threads, int Lines = (AlongRows ? 4 : Threads / 16),
          int Cells = (AlongRows ? Threads / Lines - 9 : 7)>
struct PassTileShape {
  static constexpr int threads = Threads;
  static constexpr int margin = 6;                 ///< cells loaded beyond the tile on each side
  static constexpr int lines = Lines;              ///< lines of a tile
  static constexpr int cells = Cells;              ///< cells of a line computed into the output
  static constexpr int span = cells + 2 * margin;  ///< cells of a line loaded
  static constexpr int max_faces = cells + 9;      ///< faces of a line in the first stage

  /// Cells a line `length` long loads, tiles along it times their span.
  static constexpr int cells_loaded_along(int length) { return (length + cells - 1) / cells * span; }

  /// Cells computed in stage s on each side beyond the tile: 4, 2, 0.
  static constexpr int reach(int s) { return 2 * (rk_stages - 1 - s); }

  /// Index t of work items (line, position) with positions along a line `count` long: along the
  /// line fastest along rows (they are contiguous), across lines fastest otherwise (neighbouring
  /// lines are).
  SIMAPP_HOST_DEVICE static void item(int t, int count, int& line, int& position) {
    if constexpr (AlongRows) {
      line = t / count;
      position = t % count;
    } else {
      line = t % lines;
      position = t / lines;
    }
  }

  /// A ghost row beyond a wall: row k, its position p in the tile, and the adjacent interior row.
  struct WallGhost {
    int k, p, adjacent;
  };

  /// Calls f(ghost) for each ghost row beyond a wall that stage s + 1 reads in the tile starting
  /// at cell a0 and that row k of nz is adjacent to (k = 0: rows −2, −1; k = nz − 1: rows nz,
  /// nz + 1), so that the thread computing row k in stage s makes them from its value. Stage s
  /// computes every such row k: the next stage reads two positions beyond its own cells, which
  /// are stage s's less two a side.
  template <class F>
  SIMAPP_HOST_DEVICE static void for_wall_ghosts_of(int a0, int s, int k, int nz, const F& f) {
    const int lowest = margin - reach(s + 1) - 2;  // the next stage's input positions
    for (int g = 0; g < 4; ++g) {
      if (k != (g < 2 ? 0 : nz - 1)) continue;
      const int ghost_k = g < 2 ? g - 2 : nz + g - 2;
      const int p = ghost_k - a0 + margin;
      if (p >= lowest && p < span - lowest) f(WallGhost{ghost_k, p, k});
    }
  }
};

/// f(std::integral_constant<int, s>) for each RK3 stage s in order: each stage's code of its own,
/// s a constant in it (a stage's item counts divide by constants, its context is at a fixed place).
template <class F, int... S>
SIMAPP_HOST_DEVICE void for_each_stage_of(const F& f, std::integer_sequence<int, S...>) {
  (f(std::integral_constant<int, S>{}), ...);
}
template <class F>
SIMAPP_HOST_DEVICE void for_each_stage(const F& f) {
  for_each_stage_of(f, std::make_integer_sequence<int, rk_stages>{});
}

/// Sets what a pass (a PassTile) reads and writes: qⁿ from `input` into `output`
/// (another array), stage s with the context of stage s of the StepParams<2> `params`, and the
/// tendency's source terms.
template <class Pass, class Input, class Output, class Geometry, class Background, class Params, class Sources>
void set_pass(Pass& pass, const Input& input, const Output& output, const Geometry& geometry,
              const Background& background, const Params* params, const Sources& sources) {
  pass.input = input;
  pass.nx_divisor = FastDivisor(input.shape.nx);
  pass.ny_divisor = FastDivisor(input.shape.ny);
  pass.tiles_along_divisor = FastDivisor(pass.tiles_along());
  pass.output = output;
  for (int s = 0; s < rk_stages; ++s) pass.context[s] = {geometry, background, params, s};
  pass.sources = sources;
}

/// qⁿ at one position of a tile as read from memory, before it is stored into the tile (`valid`:
/// a position the tile holds).
template <class Real, int Vars>
struct LoadedPosition {
  int line = 0, position = 0;
  bool valid = false;
  Real q[Vars];
};

/// Tile t of `pass`, the work shared by threads first, first + stride, …; `sync()` separates the
/// phases (a block barrier on the GPU; nothing for one host thread doing all of it):
///   load qⁿ | for each stage: faces | cells
/// `Pass` is a PassTileShape with tile_start(t, a0, c0), fetch and store (qⁿ at a position), face and cell
/// (phases of a tile starting at cell a0 of line c0); along walls its cells of a stage make the
/// next stage's ghost rows (for_wall_ghosts_of).
template <class Pass, class Sync>
SIMAPP_HOST_DEVICE void run_pass_tile(const Pass& pass, typename Pass::Tile& tile, int t, int first, int stride,
                                      const Sync& sync) {
  constexpr int lines = Pass::lines, cells = Pass::cells;
  int a0 = 0, c0 = 0;
  pass.tile_start(t, a0, c0);
  // A tile has more positions than threads (152 at most for 128): each thread reads two before it
  // stores either, so that its reads are in flight together.
  for (int u = first; u < lines * Pass::span; u += 2 * stride) {
    const auto position = pass.fetch(a0, c0, u);
    const auto next = pass.fetch(a0, c0, u + stride);
    pass.store(tile, position);
    pass.store(tile, next);
  }
  sync();
  const auto stage = [&](int s) {
    for (int u = first; u < lines * (cells + 2 * Pass::reach(s) + 1); u += stride) pass.face(tile, a0, c0, s, u);
    sync();
    for (int u = first; u < lines * (cells + 2 * Pass::reach(s)); u += stride) pass.cell(tile, a0, c0, s, u);
    sync();
  };
  // Each stage's code of its own (s a constant: item counts divide by constants, the stage's
  // context at a fixed place) along x and y; the z pass, whose code is the largest (the walls'
  // ghost rows), keeps one loop: unrolled, its instructions no longer fit the multiprocessor's
  // instruction cache (docs/performance.md, "Instructions a cell").
  if constexpr (Pass::direction == Direction::z) {
    for (int s = 0; s < rk_stages; ++s) stage(s);
  } else {
    for_each_stage([&](auto s) { stage(decltype(s)::value); });
  }
}

}  // namespace simapp
