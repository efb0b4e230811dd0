#pragma once
/// The three RK3 stages of a split pass of the 3-D model on one tile, in one block, for the
/// persistent kernel and the pass kernel (pass_kernel_3d.hpp) (temporal blocking, as the 2-D
/// model's pass_tile.hpp does it):
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**)
/// with R from the stage kernel's point functions in the stage kernel's order
/// (stage_tile_3d.hpp: face_flux_3d, stage_factors_3d, momentum_source_3d, stage_tendency), so
/// the same bits. A pass reads neighbours along its own direction only, so a tile is a few
/// lines of cells along the pass: a tile of n cells a line loads qⁿ on n + 12, computes q* on
/// the middle n + 8, q** on n + 4 and qⁿ⁺¹ on its n, all in shared memory.
///
/// Lines: the x pass's are rows (j, k), four consecutive ones a tile (rows are contiguous); the
/// y and z passes' are columns along j at (i, k) or along k at (i, j), Threads / 16 consecutive
/// i a tile, so that a tile's loads of one position are contiguous. Ghost cells, for one rank
/// holding the whole grid: along x and y (periodic) every loaded cell is the interior cell it
/// wraps to, computed as that cell; along z (walls) only interior cells are computed, and the
/// two ghost rows beyond a wall are made from each stage's adjacent row by the wall rule.
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/flux/face_flux_3d.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/pass_tile_shape.hpp"
#include "kernels/stage/pass_tile_sides.hpp"
#include "kernels/update/stage_tendency_3d.hpp"

namespace simapp {

/// A pass of `Threads` threads a block, on tiles of PassTileShape: x along rows, y and z across
/// columns.
template <Direction D, int Threads, int Lines = (D == Direction::x ? 4 : Threads / 16),
          int Cells = (D == Direction::x ? Threads / Lines - 9 : 7)>
struct PassTile3d : PassTileShape<D == Direction::x, Threads, Lines, Cells> {
  using Shape = PassTileShape<D == Direction::x, Threads, Lines, Cells>;
  using Shape::margin, Shape::lines, Shape::cells, Shape::span, Shape::max_faces, Shape::reach, Shape::item;
  using V = ModelVariables<3>;
  static constexpr Direction direction = D;
  static constexpr bool x_pass = D == Direction::x;
  static constexpr bool z_pass = D == Direction::z;

  /// qⁿ, q*, q** and the fluxes of each variable, by line and position: along a row for x
  /// ([line][position]: a warp reads consecutive positions of a row), across lines for y and z
  /// ([position][line]: a warp reads the tile's lines at a few positions), so that a warp's
  /// shared-memory accesses are consecutive (no bank conflicts).
  struct Tile {
    double q[rk_stages][V::count][lines * span];
    double flux[V::count][lines * max_faces];
  };
  SIMAPP_HOST_DEVICE static double& q(Tile& tile, int s, int v, int l, int p) {
    return tile.q[s][v][x_pass ? l * span + p : p * lines + l];
  }
  SIMAPP_HOST_DEVICE static double& flux(Tile& tile, int v, int l, int f) {
    return tile.flux[v][x_pass ? l * max_faces + f : f * lines + l];
  }

  FieldView<const double, 3> input;   ///< qⁿ
  FieldView<double, 3> output;        ///< qⁿ⁺¹ (another array: other tiles still read qⁿ)
  FluxContext<3> context[rk_stages];  ///< per stage; their params are this step's slot
  Bump<3> wave_source;

  /// Cells along the pass, and lines across it (x: ny · nz rows; y: nx · nz; z: nx · ny).
  SIMAPP_HOST_DEVICE int length() const { return x_pass ? input.shape.nx : z_pass ? input.shape.nz : input.shape.ny; }
  SIMAPP_HOST_DEVICE int breadth() const {
    const FieldShape<3>& s = input.shape;
    return x_pass ? s.ny * s.nz : z_pass ? s.nx * s.ny : s.nx * s.nz;
  }
  SIMAPP_HOST_DEVICE int tiles_along() const { return (length() + cells - 1) / cells; }
  SIMAPP_HOST_DEVICE int tile_count() const { return tiles_along() * ((breadth() + lines - 1) / lines); }

  struct Cell {
    int i, j, k;
  };

  /// The cell at position `along` of line L (global line index); along x and y, the interior
  /// cell it wraps to.
  SIMAPP_HOST_DEVICE Cell cell_of(int line, int along) const {
    const FieldShape<3>& s = input.shape;
    if constexpr (x_pass) return {((along % s.nx) + s.nx) % s.nx, line % s.ny, line / s.ny};
    if constexpr (z_pass) return {line % s.nx, line / s.nx, along};
    return {line % s.nx, ((along % s.ny) + s.ny) % s.ny, line / s.nx};
  }

  /// Whether position p of a line is a cell computed in a stage (interior along z).
  SIMAPP_HOST_DEVICE bool computed(int a0, int p) const {
    if constexpr (!z_pass) return true;
    const int k = a0 - margin + p;
    return k >= 0 && k < input.shape.nz;
  }

  using Loaded = LoadedPosition<V::count>;

  /// qⁿ at item t of the tile starting at (a0, c0): every position along x and y; interior rows
  /// and the two ghost rows by each wall along z.
  SIMAPP_HOST_DEVICE Loaded fetch(int a0, int c0, int t) const {
    Loaded loaded;
    if (t >= lines * span) return loaded;
    item(t, span, loaded.line, loaded.position);
    if (c0 + loaded.line >= breadth()) return loaded;
    const Cell c = cell_of(c0 + loaded.line, a0 - margin + loaded.position);
    if constexpr (z_pass) {
      const int nz = input.shape.nz;
      if (c.k < -2 || c.k >= nz + 2) return loaded;  // never read
      if (c.k < 0 || c.k >= nz) {
        const int adjacent = c.k < 0 ? 0 : nz - 1;
        const HydrostaticView& background = context[0].background;
        for (int v = 0; v < V::count; ++v)
          loaded.q[v] = wall_ghost<V>(v, input(v, adjacent, c.j, c.i), background.cell_density(adjacent),
                                      background.cell_density(c.k));
        loaded.valid = true;
        return loaded;
      }
    }
    for (int v = 0; v < V::count; ++v) loaded.q[v] = input(v, c.k, c.j, c.i);
    loaded.valid = true;
    return loaded;
  }

  SIMAPP_HOST_DEVICE static void store(Tile& tile, const Loaded& loaded) {
    if (!loaded.valid) return;
    for (int v = 0; v < V::count; ++v) q(tile, 0, v, loaded.line, loaded.position) = loaded.q[v];
  }

  /// Face f of stage s: the low face of the stage's cell f (positions margin − reach(s) + f).
  SIMAPP_HOST_DEVICE void face(Tile& tile, int a0, int c0, int s, int t) const {
    const int faces = cells + 2 * reach(s) + 1;
    int l = 0, f = 0;
    item(t, faces, l, f);
    if (c0 + l >= breadth()) return;
    const int p = margin - reach(s) + f;
    const int along = a0 - margin + p;
    if constexpr (z_pass) {
      if (along < 0 || along > input.shape.nz) return;  // no interior cell on either side
    }
    double face_q[V::count], d3[V::count], face_flux[V::count];
    for (int v = 0; v < V::count; ++v) {
      const double s0 = q(tile, s, v, l, p - 2), s1 = q(tile, s, v, l, p - 1), s2 = q(tile, s, v, l, p),
                   s3 = q(tile, s, v, l, p + 1);
      face_q[v] = face_value(s0, s1, s2, s3);
      d3[v] = third_difference(s0, s1, s2, s3);
    }
    const int k = z_pass ? along : cell_of(c0 + l, along).k;  // the face's row (x, y) or face k (z)
    face_flux_3d<D>(
        face_q, d3, k, context[s],
        [&](double low[V::count], double high[V::count]) {  // the two cells either side of the face
          for (int v = 0; v < V::count; ++v) {
            low[v] = q(tile, s, v, l, p - 1);
            high[v] = q(tile, s, v, l, p);
          }
        },
        face_flux);
    for (int v = 0; v < V::count; ++v) flux(tile, v, l, f) = face_flux[v];
  }

  /// Cell f of stage s: into the next stage's input (along z with the ghost rows it is adjacent
  /// to), or (last stage) into the output.
  SIMAPP_HOST_DEVICE void cell(Tile& tile, int a0, int c0, int s, int t) const {
    const int count = cells + 2 * reach(s);
    int l = 0, f = 0;
    item(t, count, l, f);
    if (c0 + l >= breadth()) return;
    const int p = margin - reach(s) + f;
    if (!computed(a0, p)) return;
    const bool last = s == rk_stages - 1;
    if (last && a0 - margin + p >= length()) return;  // past the far end of the grid: another tile's
    const Cell c = cell_of(c0 + l, a0 - margin + p);
    const StageFactors factors = stage_factors_3d<D>(context[s]);
    const double source = momentum_source_3d<D>(c.i, c.j, c.k, context[s], wave_source);
    for (int v = 0; v < V::count; ++v) {
      const double density_perturbation = z_pass && v == V::wmom ? q(tile, s, V::dens, l, p) : 0.0;
      const double tendency =
          stage_tendency<D, V>(v, flux(tile, v, l, f), flux(tile, v, l, f + 1), density_perturbation, source, factors);
      const double value = stage_update(q(tile, 0, v, l, p), tendency, factors.dt);
      if (last) {
        output(v, c.k, c.j, c.i) = value;
        continue;
      }
      q(tile, s + 1, v, l, p) = value;
      if constexpr (z_pass) {
        const HydrostaticView& background = context[0].background;
        Shape::for_wall_ghosts_of(a0, s, c.k, input.shape.nz, [&](const typename Shape::WallGhost& ghost) {
          q(tile, s + 1, v, l, ghost.p) =
              wall_ghost<V>(v, value, background.cell_density(ghost.adjacent), background.cell_density(ghost.k));
        });
      }
    }
  }

  /// The health check of tile t's own cells of the output, after run(), the work shared as there
  /// (check_cell_health_3d into `record`).
  SIMAPP_HOST_DEVICE void check_output(int t, int first, int stride, HealthRecord* record) const {
    const int a0 = t % tiles_along() * cells;
    const int c0 = t / tiles_along() * lines;
    for (int u = first; u < lines * cells; u += stride) {
      int l = 0, f = 0;
      item(u, cells, l, f);
      if (c0 + l >= breadth() || a0 + f >= length()) continue;
      const Cell c = cell_of(c0 + l, a0 + f);
      check_cell_health_3d(output, context[0].background, context[0].geometry, record, c.k, c.j, c.i);
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
