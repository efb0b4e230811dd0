#pragma once
/// The three RK3 stages of a split pass on one tile, in one block, for the persistent kernel and
/// the pass kernel (pass_kernel.hpp) (temporal blocking):
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**)
/// with R from the same point functions, in the same order, as the stage kernel
/// (stage_tile.hpp: face_flux, stage_factors, momentum_source, stage_tendency), so the same bits.
/// A tile may carry `Tracers` tracers after the dry variables (docs/model.md, "Tracers"): their
/// fluxes are those of the tracer transport kernel (tracer_transport.hpp: tracer_face_flux with
/// the face velocity of the dry flux, formed from the face values of ρ′ and the normal momentum
/// the dry flux computes), their wall ghost rows copy the adjacent row (wall_ghost), and their
/// update is the stage's, so a pass with tracers gives the bits of the stage kernels followed by
/// the tracer transport kernel, stage by stage.
/// A pass reads neighbours along its own direction only, so a tile is a few lines of cells along
/// the pass; a stage's cell needs its input two cells either side, so a tile of n cells a line
/// loads qⁿ on n + 12 cells, computes q* on the middle n + 8, q** on n + 4 and qⁿ⁺¹ on its n, all
/// in shared memory: the grid needs one barrier a pass instead of three, and stages 2 and 3 read
/// nothing from global memory.
///
/// Lines: the x pass's are rows (2-D: k; 3-D: (j, k)), a few consecutive ones a tile (rows are
/// contiguous); the others' are columns (2-D z: at i; 3-D y: along j at (i, k), z: along k at
/// (i, j)), consecutive i a tile, so that a tile's loads of one position are contiguous.
/// Ghost cells, for one rank holding the whole grid: along x and y (periodic) every loaded cell
/// is the interior cell it wraps to and is computed as that cell, which is what a ghost copy of
/// it would hold; along z (walls) only interior cells are computed, and the two ghost rows beyond
/// a wall are made from each stage's adjacent row by the wall rule. Other conditions (an inflow
/// makes a ghost differ from the cell it wraps to) keep one barrier a stage: pass_tile_makes
/// (pass_tile_sides.hpp). Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include <type_traits>

#include "kernels/backend/fast_divisor.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/pass_tile_shape.hpp"
#include "kernels/stage/pass_tile_sides.hpp"
#include "kernels/update/source_terms.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// A pass tile's shape with the background profiles of the tracers the tile carries (a tile
/// without tracers derives from the shape alone: its parameters are what they were).
template <class Shape>
struct WithTracerBackground : Shape {
  TracerBackground tracer_background;  ///< tracer b's profiles at b
};

/// A pass of `Threads` threads a block, on tiles of PassTileShape (`Lines` lines of `Cells` cells
/// computed, or its default shape): x along rows, y and z across columns; the state's variables
/// are the model's dry ones followed by `Tracers` tracers, of type Real (double or float).
template <Direction D, int Dims, class Real, int Threads, int Lines = (D == Direction::x ? 4 : Threads / 16),
          int Cells = (D == Direction::x ? Threads / Lines - 9 : 7), int Tracers = 0>
struct PassTile
    : std::conditional_t<(Tracers > 0), WithTracerBackground<PassTileShape<D == Direction::x, Threads, Lines, Cells>>,
                         PassTileShape<D == Direction::x, Threads, Lines, Cells>> {
  using Shape = PassTileShape<D == Direction::x, Threads, Lines, Cells>;
  using Shape::margin, Shape::lines, Shape::cells, Shape::span, Shape::max_faces, Shape::reach, Shape::item;
  using V = ModelVariables<Dims>;
  static constexpr int tracers = Tracers;
  static constexpr int vars = V::count + Tracers;  ///< the dry variables, then the tracers
  static constexpr Direction direction = D;
  static constexpr bool x_pass = D == Direction::x;
  static constexpr bool z_pass = D == Direction::z;
  /// Where a line's positions lie in shared memory: together ([line][position]: a warp reads
  /// consecutive positions of a line) along x and in 2-D; across lines for the 3-D y and z passes
  /// ([position][line]: a warp reads the tile's lines at a few positions), so that a warp's
  /// shared-memory accesses are consecutive (no bank conflicts). The 2-D z pass keeps each
  /// column's positions together: at 4096 × 2048 the 3-D layout took 10 % longer.
  static constexpr bool by_line = x_pass || Dims == 2;

  /// qⁿ, q*, q** and the fluxes of each variable, by line and position.
  struct Tile {
    Real q[rk_stages][vars][lines * span];
    Real flux[vars][lines * max_faces];
  };
  SIMAPP_HOST_DEVICE static Real& q(Tile& tile, int s, int v, int l, int p) {
    return tile.q[s][v][by_line ? l * span + p : p * lines + l];
  }
  SIMAPP_HOST_DEVICE static Real& flux(Tile& tile, int v, int l, int f) {
    return tile.flux[v][by_line ? l * max_faces + f : f * lines + l];
  }

  FieldView<const Real, Dims> input;     ///< qⁿ
  FastDivisor nx_divisor, ny_divisor;    ///< the input's nx and ny, for cell_of (set_pass)
  FastDivisor tiles_along_divisor;       ///< tiles_along(), for tile_start (set_pass)
  FieldView<Real, Dims> output;          ///< qⁿ⁺¹ (another array: other tiles still read qⁿ)
  FluxContext<Dims> context[rk_stages];  ///< per stage; their params are this step's slot
  SourceTerms<Dims> sources;

  /// Cells along the pass, and lines across it (x: ny · nz rows; y: nx · nz; z: nx · ny; 2-D ny = 1).
  SIMAPP_HOST_DEVICE int length() const { return x_pass ? input.shape.nx : z_pass ? input.shape.nz : input.shape.ny; }
  SIMAPP_HOST_DEVICE int breadth() const {
    const FieldShape<Dims>& s = input.shape;
    if constexpr (Dims == 2) return x_pass ? s.nz : s.nx;
    return x_pass ? s.ny * s.nz : z_pass ? s.nx * s.ny : s.nx * s.nz;
  }
  SIMAPP_HOST_DEVICE int tiles_along() const { return (length() + cells - 1) / cells; }
  SIMAPP_HOST_DEVICE int tile_count() const { return tiles_along() * ((breadth() + lines - 1) / lines); }
  /// Where tile t starts: cell a0 of its lines along the pass and line c0 across it (the tiles of
  /// a few lines follow each other along the pass).
  SIMAPP_HOST_DEVICE void tile_start(int t, int& a0, int& c0) const {
    const int row = tiles_along_divisor.quotient(t);
    a0 = (t - row * tiles_along_divisor.divisor()) * cells;
    c0 = row * lines;
  }

  struct Cell {
    int i, j, k;
  };

  /// The cell at position `along` of line L (global line index); along x and y, the interior
  /// cell it wraps to.
  SIMAPP_HOST_DEVICE Cell cell_of(int line, int along) const {
    if constexpr (Dims == 2) {
      if constexpr (x_pass) return {nx_divisor.wrapped(along), 0, line};
      return {line, 0, along};
    } else {
      if constexpr (x_pass) return {nx_divisor.wrapped(along), ny_divisor.remainder(line), ny_divisor.quotient(line)};
      if constexpr (z_pass) return {nx_divisor.remainder(line), nx_divisor.quotient(line), along};
      return {nx_divisor.remainder(line), ny_divisor.wrapped(along), nx_divisor.quotient(line)};
    }
  }

  /// Whether position p of a line is a cell computed in a stage (interior along z).
  SIMAPP_HOST_DEVICE bool computed(int a0, int p) const {
    if constexpr (!z_pass) return true;
    const int k = a0 - margin + p;
    return k >= 0 && k < input.shape.nz;
  }

  using Loaded = LoadedPosition<Real, vars>;

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
        for (int v = 0; v < vars; ++v)
          loaded.q[v] = wall_ghost<V>(v, input(v, adjacent, c.j, c.i), background.cell_density(adjacent),
                                      background.cell_density(c.k));
        loaded.valid = true;
        return loaded;
      }
    }
    for (int v = 0; v < vars; ++v) loaded.q[v] = input(v, c.k, c.j, c.i);
    loaded.valid = true;
    return loaded;
  }

  SIMAPP_HOST_DEVICE static void store(Tile& tile, const Loaded& loaded) {
    if (!loaded.valid) return;
    for (int v = 0; v < vars; ++v) q(tile, 0, v, loaded.line, loaded.position) = loaded.q[v];
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
    Real face_q[V::count], d3[V::count], flux_out[V::count];
    for (int v = 0; v < V::count; ++v) {
      const Real s0 = q(tile, s, v, l, p - 2), s1 = q(tile, s, v, l, p - 1), s2 = q(tile, s, v, l, p),
                 s3 = q(tile, s, v, l, p + 1);
      face_q[v] = face_value(s0, s1, s2, s3);
      d3[v] = third_difference(s0, s1, s2, s3);
    }
    const int k = z_pass ? along : cell_of(c0 + l, along).k;  // the face's row (x, y) or face k (z)
    face_flux<D>(
        face_q, d3, k, context[s],
        [&](Real low[V::count], Real high[V::count]) {  // the two cells either side of the face
          for (int v = 0; v < V::count; ++v) {
            low[v] = q(tile, s, v, l, p - 1);
            high[v] = q(tile, s, v, l, p);
          }
          const Cell c = cell_of(c0 + l, along);
          return ColumnIndex{c.i, c.j};
        },
        flux_out);
    for (int v = 0; v < V::count; ++v) flux(tile, v, l, f) = flux_out[v];
    if constexpr (Tracers > 0) tracer_face(tile, s, l, f, p, k, face_q[V::dens], face_q[normal_momentum<D, Dims>()]);
  }

  /// The tracers' fluxes at face f of stage s (position p of line l, row or interface k), carried
  /// by the velocity the dry flux forms from the face values of ρ′ and of the normal momentum:
  ///   F = u (q_f(ρ_x′) + ρ̄_x(k)) − K d3(ρ_x′)   (tracer_face_flux; ρ̄_x at the row's cells along
  ///   x and y, at the interface along z),
  /// and with a diffusivity κ the diffusive flux of the mixing ratio between the face's two cells
  /// (tracer_diffusive_flux), as the tracer transport kernel adds it.
  SIMAPP_HOST_DEVICE void tracer_face(Tile& tile, int s, int l, int f, int p, int k, Real density_face,
                                      Real momentum_face) const {
    const Real velocity = face_velocity<D>(density_face, momentum_face, k, context[s]);
    const bool diffuse = diffusivity_over_spacing<D>(context[s]) != 0.0;
    const HydrostaticView& dry_background = context[s].background;
    const int row_low = z_pass ? k - 1 : k;  // the rows of the face's two cells
    Real factor = 0, inv_density_low = 0, inv_density_high = 0;
    if (diffuse) {
      factor = tracer_diffusion_factor<D>(density_face, k, context[s]);
      inv_density_low = Real(1) / (q(tile, s, V::dens, l, p - 1) + Real(dry_background.cell_density(row_low)));
      inv_density_high = Real(1) / (q(tile, s, V::dens, l, p) + Real(dry_background.cell_density(k)));
    }
    for (int b = 0; b < Tracers; ++b) {
      const int v = V::count + b;
      const Real tracer[4] = {q(tile, s, v, l, p - 2), q(tile, s, v, l, p - 1), q(tile, s, v, l, p),
                              q(tile, s, v, l, p + 1)};
      const TracerBackground& profiles = this->tracer_background;
      const double background = z_pass ? profiles.face_value(b, k) : profiles.cell_value(b, k);
      Real value = tracer_face_flux<D>(velocity, tracer, background, k, context[s]);
      if (diffuse)
        value += tracer_diffusive_flux(
            factor,
            TracerInCell<Real>{tracer[1], profiles.cell_value(b, row_low), inv_density_low,
                               dry_background.cell_density(row_low)},
            TracerInCell<Real>{tracer[2], profiles.cell_value(b, k), inv_density_high, dry_background.cell_density(k)});
      flux(tile, v, l, f) = value;
    }
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
    const StageFactors<Real> factors = stage_factors<D, Real>(context[s]);
    const Real source = Real(momentum_source<D>(c.i, c.j, c.k, context[s], sources));
    Real values[vars];
    for (int v = 0; v < vars; ++v) {  // a tracer's tendency is −(F_high − F_low)/Δ alone
      const Real density_perturbation = z_pass && v == V::wmom ? q(tile, s, V::dens, l, p) : Real(0);
      const Real tendency =
          stage_tendency<D, V>(v, flux(tile, v, l, f), flux(tile, v, l, f + 1), density_perturbation, source, factors);
      values[v] = stage_update(q(tile, 0, v, l, p), tendency, factors.dt);
      if (last)
        output(v, c.k, c.j, c.i) = values[v];
      else
        q(tile, s + 1, v, l, p) = values[v];
    }
    if constexpr (z_pass) {
      // The next stage's ghost rows by a wall, made from this cell's values: each ghost's two
      // background densities read once for all the variables.
      if (last) return;
      const HydrostaticView& background = context[0].background;
      Shape::for_wall_ghosts_of(a0, s, c.k, input.shape.nz, [&](const typename Shape::WallGhost& ghost) {
        const double adjacent_density = background.cell_density(ghost.adjacent);
        const double ghost_density = background.cell_density(ghost.k);
        for (int v = 0; v < vars; ++v)
          q(tile, s + 1, v, l, ghost.p) = wall_ghost<V>(v, values[v], adjacent_density, ghost_density);
      });
    }
  }

  /// The health check of tile t's own cells of the output, after run(), the work shared as there
  /// (check_cell_health into `record`).
  SIMAPP_HOST_DEVICE void check_output(int t, int first, int stride, HealthRecord* record) const {
    int a0 = 0, c0 = 0;
    tile_start(t, a0, c0);
    for (int u = first; u < lines * cells; u += stride) {
      int l = 0, f = 0;
      item(u, cells, l, f);
      if (c0 + l >= breadth() || a0 + f >= length()) continue;
      const Cell c = cell_of(c0 + l, a0 + f);
      check_cell_health(output, context[0].background, context[0].geometry, record, c.k, c.j, c.i);
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
