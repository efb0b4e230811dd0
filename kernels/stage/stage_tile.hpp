#pragma once
/// The stage kernel's work on one tile (kernels/stage/stage_kernel.hpp), in the three phases
/// parallel_for_tiles runs: shared by the stage kernels and the persistent kernel.
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include <type_traits>

#include "kernels/backend/tile_copy.hpp"
#include "kernels/backend/tile_origin.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "kernels/stage/stage_tile_shape.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// The stage as a tiled kernel (stage_tile_shape.hpp). Tiles are long along x (coalesced rows),
/// with rows along the plane's second axis: in 2-D the (i, k) plane; in 3-D plane by plane, the
/// x and y passes tiling the (i, j) plane of each layer k and the z pass the (i, k) plane of each
/// layer j, so that the background of an x or y tile is that of one row. The x pass's tiles load
/// two ghost columns each side, the others two ghost rows (the 2-D z pass's tiles). Real: the
/// state's type (double or float).
template <Direction D, int Dims, class Real, int Threads = 384>
struct StageKernel : StageTileShape<Real, D == Direction::x, Threads, ModelVariables<Dims>::count> {
  using V = ModelVariables<Dims>;
  using Shape = StageTileShape<Real, D == Direction::x, Threads, V::count>;
  using Shape::halo_x, Shape::halo_z;
  using typename Shape::Tile;
  /// Where a tile lies: in 3-D also the layer of its plane.
  using Origin = std::conditional_t<Dims == 3, LayerTileOrigin, TileOrigin>;
  static constexpr bool x_pass = D == Direction::x;
  static constexpr bool y_pass = D == Direction::y;
  static constexpr bool z_pass = D == Direction::z;

  StageArrays<Real, Dims> arrays;
  FluxContext<Dims> context;
  SourceTerms<Dims> sources;
  BoundaryConditions<Dims> sides;  ///< what makes the ghost cells of each side

  struct Cell {
    int i, j, k;
  };

  /// The cell at index i along x and m along the plane's second axis of the tile's layer.
  SIMAPP_HOST_DEVICE static Cell cell_at(int i, int m, const Origin& origin) {
    if constexpr (Dims == 2)
      return Cell{i, 0, m};
    else
      return z_pass ? Cell{i, origin.layer, m} : Cell{i, m, origin.layer};
  }

  /// The background row of the tile's row b: the row itself, or (3-D x and y passes) the layer.
  SIMAPP_HOST_DEVICE static int row_of(int b, const Origin& origin) {
    if constexpr (Dims == 3 && !z_pass)
      return origin.layer;
    else
      return origin.k0 + b;
  }

  /// Where the stage input at c is read: along x (and y) a periodic image where the side copies
  /// one (point_read); the rules of input_at change what is read there.
  SIMAPP_HOST_DEVICE const Real* input_cell(const Cell& c) const {
    if constexpr (x_pass)
      return arrays.forcing_at(c.k, c.j, point_read(c.i, arrays.shape.nx, sides.x_low, sides.x_high));
    if constexpr (y_pass)
      return arrays.forcing_at(c.k, point_read(c.j, arrays.shape.ny, sides.y_low, sides.y_high), c.i);
    return arrays.forcing_at(c.k, c.j, c.i);
  }

  /// The stage input at cell c, which may be a ghost cell: a wall's rows made by rule (z), every
  /// other point read where input_cell says, an inflow's rows then changed (x).
  SIMAPP_HOST_DEVICE void input_at(const Cell& c, Real q[V::count]) const {
    const HydrostaticView& background = context.background;
    const std::size_t stride = arrays.shape.var_stride();
    if constexpr (z_pass) {
      const int nz = arrays.shape.nz;
      const bool low_wall = c.k < 0 && sides.z_low.is_wall();
      const bool high_wall = c.k >= nz && sides.z_high.is_wall();
      if (low_wall || high_wall) {
        const int adjacent = low_wall ? 0 : nz - 1;
        const Real* cell = arrays.forcing_at(adjacent, c.j, c.i);
        for (int v = 0; v < V::count; ++v)
          q[v] = wall_ghost<V>(v, cell[v * stride], background.cell_density(adjacent), background.cell_density(c.k));
        return;
      }
    }
    const Real* cell = input_cell(c);
    for (int v = 0; v < V::count; ++v) q[v] = cell[v * stride];
    if (x_pass && c.i < 0 && sides.x_low.has_inflow() &&
        sides.inflow.applies(context.geometry.z_center(c.k), context.geometry.zlen))
      apply_inflow<V>(q, background.cell_density(c.k), background.cell_rho_theta(c.k), sides.inflow);
  }

  /// Whether a rule computes any point the tile loads (an inflow's rows, a wall's rows); every
  /// other point, periodic images included, is read from memory without testing the rules
  /// point by point. Deciding this before the loads costs them: the x pass reads periodic
  /// images by address instead (docs/performance/journal/2026-12-04-periodic-ghosts-by-address.md).
  SIMAPP_HOST_DEVICE bool needs_rules(const Origin& origin) const {
    if constexpr (x_pass) {
      return sides.x_low.has_inflow() && origin.i0 - halo_x < 0;
    } else if constexpr (y_pass) {
      return false;
    } else {
      return (sides.z_low.is_wall() && origin.k0 - halo_z < 0) ||
             (sides.z_high.is_wall() && origin.k0 + origin.nk + halo_z > arrays.shape.nz);
    }
  }

  /// Whether the step's initial state is the stage input (a first stage): then the tile's
  /// loaded points hold it.
  SIMAPP_HOST_DEVICE bool init_is_input() const { return arrays.init == arrays.forcing; }

  SIMAPP_HOST_DEVICE void load(Tile& tile, const Origin& origin, int a, int b) const {
    const Cell c = cell_at(origin.i0 - halo_x + a, origin.k0 - halo_z + b, origin);
    if (needs_rules(origin)) {
      Real q[V::count];
      input_at(c, q);
      for (int v = 0; v < V::count; ++v) tile.q[v][b][a] = q[v];
    } else {
      const Real* cell = input_cell(c);
      const std::size_t stride = arrays.shape.var_stride();
      for (int v = 0; v < V::count; ++v) copy_into_tile(tile.q[v][b][a], cell[v * stride]);
    }
    load_init(tile, origin, a - halo_x, b - halo_z);
  }

  /// The step's initial state at the tile's cell (ca, cb), read with the stage input: read in
  /// the update, after two barriers, its loads had nothing left to hide their latency behind
  /// (the later stages waited on them: docs/performance/journal/2026-12-01-stage-loads.md).
  SIMAPP_HOST_DEVICE void load_init(Tile& tile, const Origin& origin, int ca, int cb) const {
    if (init_is_input() || ca < 0 || ca >= origin.ni || cb < 0 || cb >= origin.nk) return;
    const Cell c = cell_at(origin.i0 + ca, origin.k0 + cb, origin);
    const Real* cell = arrays.init_at(c.k, c.j, c.i);
    const std::size_t stride = arrays.shape.var_stride();
    for (int v = 0; v < V::count; ++v) copy_into_tile(tile.init[v][cb][ca], cell[v * stride]);
  }

  /// Face a (x) or b (y, z) of the tile lies between its cells a − 1 and a (b − 1 and b), so its
  /// four stencil cells are tile points a … a + 3 (b … b + 3).
  SIMAPP_HOST_DEVICE void face(Tile& tile, const Origin& origin, int a, int b) const {
    Real q[V::count], d3[V::count], f[V::count];
    for (int v = 0; v < V::count; ++v) {
      Real s[4];
      for (int n = 0; n < 4; ++n) s[n] = x_pass ? tile.q[v][b][a + n] : tile.q[v][b + n][a];
      q[v] = face_value(s[0], s[1], s[2], s[3]);
      d3[v] = third_difference(s[0], s[1], s[2], s[3]);
    }
    face_flux<D>(
        q, d3, row_of(b, origin), context,
        [&](Real low[V::count], Real high[V::count]) {  // the two cells either side of the face
          for (int v = 0; v < V::count; ++v) {
            low[v] = x_pass ? tile.q[v][b][a + 1] : tile.q[v][b + 1][a];
            high[v] = x_pass ? tile.q[v][b][a + 2] : tile.q[v][b + 2][a];
          }
          const Cell c = cell_at(origin.i0 + a, origin.k0 + b, origin);  // the face's high cell
          return ColumnIndex{c.i, c.j};
        },
        f);
    for (int v = 0; v < V::count; ++v) tile.flux[v][b][a] = f[v];
  }

  SIMAPP_HOST_DEVICE void cell(const Tile& tile, const Origin& origin, int a, int b) const {
    const Cell c = cell_at(origin.i0 + a, origin.k0 + b, origin);
    const int qa = a + halo_x, qb = b + halo_z;  // the cell's place among the loaded points
    const bool init_is_input = this->init_is_input();
    const std::size_t out_stride = arrays.shape.var_stride();
    Real* out = arrays.out_at(c.k, c.j, c.i);
    const StageFactors<Real> factors = stage_factors<D, Real>(context);
    const Real source = Real(momentum_source<D>(c.i, c.j, c.k, context, sources));
    for (int v = 0; v < V::count; ++v) {
      const Real high = x_pass ? tile.flux[v][b][a + 1] : tile.flux[v][b + 1][a];
      const Real density_perturbation = z_pass && v == V::wmom ? tile.q[V::dens][qb][qa] : Real(0);
      const Real tendency = stage_tendency<D, V>(v, tile.flux[v][b][a], high, density_perturbation, source, factors);
      out[v * out_stride] = stage_update(init_is_input ? tile.q[v][qb][qa] : tile.init[v][b][a], tendency, factors.dt);
    }
  }
};

}  // namespace simapp
