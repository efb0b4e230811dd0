#pragma once
/// The three RK3 stages of a split pass on one tile, in one block, for the persistent kernel and
/// the pass kernel (pass_kernel.hpp) (temporal blocking):
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**)
/// with R from the same point functions, in the same order, as the stage kernel
/// (stage_tile.hpp), so the same bits. A stage's cell needs its input two cells either side
/// along the pass, so a tile of n cells loads qⁿ on n + 12 cells, computes q* on the middle
/// n + 8, q** on n + 4 and qⁿ⁺¹ on its n, all in shared memory: the grid needs one barrier a
/// pass instead of three, and stages 2 and 3 read nothing from global memory.
///
/// Ghost cells, for one rank holding the whole grid: along x (periodic) every loaded cell is
/// the interior cell it wraps to and is computed as that cell, which is what a ghost copy of
/// it would hold; along z (walls) only interior cells are computed, and the two ghost rows
/// beyond a wall are made from each stage's adjacent row by the wall rule. Other conditions
/// (an inflow makes a ghost differ from the cell it wraps to) keep one barrier a stage:
/// pass_tile_makes (pass_tile_sides.hpp). Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/pass_tile_shape.hpp"
#include "kernels/stage/pass_tile_sides.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// A pass of `Threads` threads a block, on tiles of PassTileShape (`Lines` lines of `Cells` cells
/// computed, or its default shape): x along rows, z across columns.
template <Direction D, int Threads, int Lines = (D == Direction::x ? 4 : Threads / 16),
          int Cells = (D == Direction::x ? Threads / Lines - 9 : 7)>
struct PassTile : PassTileShape<D == Direction::x, Threads, Lines, Cells> {
  using Shape = PassTileShape<D == Direction::x, Threads, Lines, Cells>;
  using Shape::margin, Shape::lines, Shape::cells, Shape::span, Shape::max_faces, Shape::reach, Shape::item;
  static constexpr Direction direction = D;
  static constexpr bool x_pass = D == Direction::x;

  struct Tile {
    double q[rk_stages][var::count][lines][span];  ///< qⁿ, q*, q** by position along the line
    double flux[var::count][lines][max_faces];
  };

  FieldView<const double, 2> input;   ///< qⁿ
  FieldView<double, 2> output;        ///< qⁿ⁺¹ (another array: other tiles still read qⁿ)
  FluxContext<2> context[rk_stages];  ///< per stage; their params are this step's slot
  Bump<2> wave_source;

  SIMAPP_HOST_DEVICE int length() const { return x_pass ? input.shape.nx : input.shape.nz; }
  SIMAPP_HOST_DEVICE int breadth() const { return x_pass ? input.shape.nz : input.shape.nx; }
  SIMAPP_HOST_DEVICE int tiles_along() const { return (length() + cells - 1) / cells; }
  SIMAPP_HOST_DEVICE int tile_count() const { return tiles_along() * ((breadth() + lines - 1) / lines); }

  /// Global (k, i) of position p of line l in the tile starting at (a0, c0); along x, the
  /// interior column it wraps to.
  SIMAPP_HOST_DEVICE void cell_of(int a0, int c0, int l, int p, int& k, int& i) const {
    const int along = a0 - margin + p;
    if constexpr (x_pass) {
      const int nx = input.shape.nx;
      i = ((along % nx) + nx) % nx;
      k = c0 + l;
    } else {
      k = along;
      i = c0 + l;
    }
  }

  /// Whether position p of a line is a cell computed in a stage (interior along z).
  SIMAPP_HOST_DEVICE bool computed(int a0, int p) const {
    if constexpr (x_pass) return true;
    const int k = a0 - margin + p;
    return k >= 0 && k < input.shape.nz;
  }

  using Loaded = LoadedPosition<var::count>;

  /// qⁿ at item t of the tile starting at (a0, c0): every position along x; interior rows and the
  /// two ghost rows by each wall along z.
  SIMAPP_HOST_DEVICE Loaded fetch(int a0, int c0, int t) const {
    Loaded loaded;
    if (t >= lines * span) return loaded;
    int k = 0, i = 0;
    item(t, span, loaded.line, loaded.position);
    if (c0 + loaded.line >= breadth()) return loaded;
    cell_of(a0, c0, loaded.line, loaded.position, k, i);
    if constexpr (!x_pass) {
      const int nz = input.shape.nz;
      if (k < -2 || k >= nz + 2) return loaded;  // never read
      if (k < 0 || k >= nz) {
        const int adjacent = k < 0 ? 0 : nz - 1;
        const HydrostaticView& background = context[0].background;
        for (int v = 0; v < var::count; ++v)
          loaded.q[v] = wall_ghost<ModelVariables<2>>(v, input(v, adjacent, i), background.cell_density(adjacent),
                                                      background.cell_density(k));
        loaded.valid = true;
        return loaded;
      }
    }
    for (int v = 0; v < var::count; ++v) loaded.q[v] = input(v, k, i);
    loaded.valid = true;
    return loaded;
  }

  SIMAPP_HOST_DEVICE static void store(Tile& tile, const Loaded& loaded) {
    if (!loaded.valid) return;
    for (int v = 0; v < var::count; ++v) tile.q[0][v][loaded.line][loaded.position] = loaded.q[v];
  }

  /// Face f of stage s: the low face of the stage's cell f (positions margin − reach(s) + f).
  SIMAPP_HOST_DEVICE void face(Tile& tile, int a0, int c0, int s, int t) const {
    const int faces = cells + 2 * reach(s) + 1;
    int l = 0, f = 0;
    item(t, faces, l, f);
    if (c0 + l >= breadth()) return;
    const int p = margin - reach(s) + f;
    const int along = a0 - margin + p;
    if constexpr (!x_pass) {
      if (along < 0 || along > input.shape.nz) return;  // no interior cell on either side
    }
    double q[var::count], d3[var::count], flux[var::count];
    for (int v = 0; v < var::count; ++v) {
      const double* line = tile.q[s][v][l];
      q[v] = face_value(line[p - 2], line[p - 1], line[p], line[p + 1]);
      d3[v] = third_difference(line[p - 2], line[p - 1], line[p], line[p + 1]);
    }
    flux_at_face<D>(q, d3, x_pass ? c0 + l : along, context[s], flux);
    if (viscosity_over_spacing<D>(context[s]) != 0.0) {  // the two cells either side of the face
      double low[var::count], high[var::count];
      for (int v = 0; v < var::count; ++v) {
        low[v] = tile.q[s][v][l][p - 1];
        high[v] = tile.q[s][v][l][p];
      }
      add_diffusive_flux<D>(low, high, q[var::dens], x_pass ? c0 + l : along, context[s], flux);
    }
    for (int v = 0; v < var::count; ++v) tile.flux[v][l][f] = flux[v];
  }

  /// Cell f of stage s: into the next stage's input (along z with the ghost rows it is adjacent
  /// to), or (last stage) into the output.
  SIMAPP_HOST_DEVICE void cell(Tile& tile, int a0, int c0, int s, int t) const {
    const int count = cells + 2 * reach(s);
    int l = 0, f = 0, k = 0, i = 0;
    item(t, count, l, f);
    if (c0 + l >= breadth()) return;
    const int p = margin - reach(s) + f;
    if (!computed(a0, p)) return;
    cell_of(a0, c0, l, p, k, i);
    const bool last = s == rk_stages - 1;
    if (last && a0 - margin + p >= length()) return;  // past the far end of the grid: another tile's
    const StageFactors factors = stage_factors<D>(context[s]);
    const double source = momentum_source(k, i, context[s], wave_source);
    for (int v = 0; v < var::count; ++v) {
      const double density_perturbation = !x_pass && v == var::wmom ? tile.q[s][var::dens][l][p] : 0.0;
      const double tendency =
          stage_tendency<D>(v, tile.flux[v][l][f], tile.flux[v][l][f + 1], density_perturbation, source, factors);
      const double value = stage_update(tile.q[0][v][l][p], tendency, factors.dt);
      if (last) {
        output(v, k, i) = value;
        continue;
      }
      tile.q[s + 1][v][l][p] = value;
      if constexpr (!x_pass) {
        const HydrostaticView& background = context[0].background;
        Shape::for_wall_ghosts_of(a0, s, k, input.shape.nz, [&](const typename Shape::WallGhost& ghost) {
          tile.q[s + 1][v][l][ghost.p] = wall_ghost<ModelVariables<2>>(
              v, value, background.cell_density(ghost.adjacent), background.cell_density(ghost.k));
        });
      }
    }
  }

  /// The health check of tile t's own cells of the output, after run(), the work shared as there
  /// (check_cell_health into `record`).
  SIMAPP_HOST_DEVICE void check_output(int t, int first, int stride, HealthRecord* record) const {
    const int a0 = t % tiles_along() * cells;
    const int c0 = t / tiles_along() * lines;
    for (int u = first; u < lines * cells; u += stride) {
      int l = 0, f = 0, k = 0, i = 0;
      item(u, cells, l, f);
      if (c0 + l >= breadth() || a0 + f >= length()) continue;
      cell_of(a0, c0, l, margin + f, k, i);
      check_cell_health(output, context[0].background, context[0].geometry, record, k, i);
    }
  }

  /// Tile t, the work shared by threads first, first + stride, …; `sync()` separates the
  /// phases (run_pass_tile).
  template <class Sync>
  SIMAPP_HOST_DEVICE void run(Tile& tile, int t, int first, int stride, const Sync& sync) const {
    run_pass_tile(*this, tile, t, first, stride, sync);
  }
};

}  // namespace simapp
