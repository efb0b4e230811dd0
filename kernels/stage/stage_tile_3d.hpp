#pragma once
/// The 3-D stage kernel's work on one tile (kernels/stage/stage_kernel_3d.hpp), in the three
/// phases parallel_for_layered_tiles runs. Include this only from kernel sources (compiled as
/// CUDA in a CUDA build).
#include "kernels/backend/tile_copy.hpp"
#include "kernels/backend/tile_origin.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/flux/face_flux_3d.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/stage_kernel_3d.hpp"
#include "kernels/stage/stage_tile_shape.hpp"
#include "kernels/update/stage_tendency_3d.hpp"

namespace simapp {

/// The 3-D stage as a tiled kernel, plane by plane: the x and y passes tile the (i, j) plane of
/// each layer k, the z pass the (i, k) plane of each layer j, so that tiles are long along x
/// (coalesced rows) and the background of an x or y tile is that of one row. The x pass's tiles
/// are the 2-D x pass's, the y and z passes' the 2-D z pass's (stage_tile_shape.hpp), with rows
/// along j (x and y passes) or k (z pass).
template <Direction D, int Threads = 384>
struct StageKernel3d : StageTileShape<D == Direction::x, Threads, ModelVariables<3>::count> {
  using V = ModelVariables<3>;
  using Shape = StageTileShape<D == Direction::x, Threads, V::count>;
  using Shape::halo_x, Shape::halo_z;
  using typename Shape::Tile;
  static constexpr bool x_pass = D == Direction::x;
  static constexpr bool y_pass = D == Direction::y;
  static constexpr bool z_pass = D == Direction::z;

  StageArrays3d arrays;
  FluxContext<3> context;
  Bump<3> wave_source;
  BoundaryConditions<3> sides;  ///< what makes the ghost cells of each side

  struct Cell {
    int i, j, k;
  };

  /// The cell at index i along x and m along the plane's second axis of layer `layer`.
  SIMAPP_HOST_DEVICE static Cell cell_at(int i, int m, int layer) {
    return z_pass ? Cell{i, layer, m} : Cell{i, m, layer};
  }

  /// Where the stage input at c is read: along x and y a periodic image where the side copies
  /// one (point_read); the rules of input_at change what is read there.
  SIMAPP_HOST_DEVICE const double* input_cell(const Cell& c) const {
    if constexpr (x_pass)
      return arrays.forcing_at(c.k, c.j, point_read(c.i, arrays.shape.nx, sides.x_low, sides.x_high));
    if constexpr (y_pass)
      return arrays.forcing_at(c.k, point_read(c.j, arrays.shape.ny, sides.y_low, sides.y_high), c.i);
    return arrays.forcing_at(c.k, c.j, c.i);
  }

  /// The stage input at cell c, which may be a ghost cell: a wall's rows made by rule (z), every
  /// other point read where input_cell says, an inflow's rows then changed (x).
  SIMAPP_HOST_DEVICE void input_at(const Cell& c, double q[V::count]) const {
    const HydrostaticView& background = context.background;
    const std::size_t stride = arrays.shape.var_stride();
    if constexpr (z_pass) {
      const int nz = arrays.shape.nz;
      const bool low_wall = c.k < 0 && sides.z_low.is_wall();
      const bool high_wall = c.k >= nz && sides.z_high.is_wall();
      if (low_wall || high_wall) {
        const int adjacent = low_wall ? 0 : nz - 1;
        const double* cell = arrays.forcing_at(adjacent, c.j, c.i);
        for (int v = 0; v < V::count; ++v)
          q[v] = wall_ghost<V>(v, cell[v * stride], background.cell_density(adjacent), background.cell_density(c.k));
        return;
      }
    }
    const double* cell = input_cell(c);
    for (int v = 0; v < V::count; ++v) q[v] = cell[v * stride];
    if (x_pass && c.i < 0 && sides.x_low.has_inflow() &&
        sides.inflow.applies(context.geometry.z_center(c.k), context.geometry.zlen))
      apply_inflow<V>(q, background.cell_density(c.k), background.cell_rho_theta(c.k), sides.inflow);
  }

  /// Whether a rule computes any point the tile loads (an inflow's rows, a wall's rows); every
  /// other point, periodic images included, is read from memory (input_cell), as in the 2-D
  /// stage kernel (stage_tile.hpp).
  SIMAPP_HOST_DEVICE bool needs_rules(const LayerTileOrigin& origin) const {
    if constexpr (x_pass) {
      return sides.x_low.has_inflow() && origin.i0 - halo_x < 0;
    } else if constexpr (y_pass) {
      return false;
    } else {
      return (sides.z_low.is_wall() && origin.k0 - halo_z < 0) ||
             (sides.z_high.is_wall() && origin.k0 + origin.nk + halo_z > arrays.shape.nz);
    }
  }

  /// Whether the step's initial state is the stage input (a first stage).
  SIMAPP_HOST_DEVICE bool init_is_input() const { return arrays.init == arrays.forcing; }

  SIMAPP_HOST_DEVICE void load(Tile& tile, const LayerTileOrigin& origin, int a, int b) const {
    const Cell c = cell_at(origin.i0 - halo_x + a, origin.k0 - halo_z + b, origin.layer);
    if (needs_rules(origin)) {
      double q[V::count];
      input_at(c, q);
      for (int v = 0; v < V::count; ++v) tile.q[v][b][a] = q[v];
    } else {
      const double* cell = input_cell(c);
      const std::size_t stride = arrays.shape.var_stride();
      for (int v = 0; v < V::count; ++v) copy_into_tile(tile.q[v][b][a], cell[v * stride]);
    }
    load_init(tile, origin, a - halo_x, b - halo_z);
  }

  /// The step's initial state at the tile's cell (ca, cb), read with the stage input.
  SIMAPP_HOST_DEVICE void load_init(Tile& tile, const LayerTileOrigin& origin, int ca, int cb) const {
    if (init_is_input() || ca < 0 || ca >= origin.ni || cb < 0 || cb >= origin.nk) return;
    const Cell c = cell_at(origin.i0 + ca, origin.k0 + cb, origin.layer);
    const double* cell = arrays.init_at(c.k, c.j, c.i);
    const std::size_t stride = arrays.shape.var_stride();
    for (int v = 0; v < V::count; ++v) copy_into_tile(tile.init[v][cb][ca], cell[v * stride]);
  }

  /// Face a (x) or b (y, z) of the tile lies between its cells a − 1 and a (b − 1 and b), so its
  /// four stencil cells are tile points a … a + 3 (b … b + 3).
  SIMAPP_HOST_DEVICE void face(Tile& tile, const LayerTileOrigin& origin, int a, int b) const {
    double q[V::count], d3[V::count], f[V::count];
    for (int v = 0; v < V::count; ++v) {
      double s[4];
      for (int n = 0; n < 4; ++n) s[n] = x_pass ? tile.q[v][b][a + n] : tile.q[v][b + n][a];
      q[v] = face_value(s[0], s[1], s[2], s[3]);
      d3[v] = third_difference(s[0], s[1], s[2], s[3]);
    }
    const int k = z_pass ? origin.k0 + b : origin.layer;
    face_flux_3d<D>(
        q, d3, k, context,
        [&](double low[V::count], double high[V::count]) {  // the two cells either side of the face
          for (int v = 0; v < V::count; ++v) {
            low[v] = x_pass ? tile.q[v][b][a + 1] : tile.q[v][b + 1][a];
            high[v] = x_pass ? tile.q[v][b][a + 2] : tile.q[v][b + 2][a];
          }
        },
        f);
    for (int v = 0; v < V::count; ++v) tile.flux[v][b][a] = f[v];
  }

  SIMAPP_HOST_DEVICE void cell(const Tile& tile, const LayerTileOrigin& origin, int a, int b) const {
    const Cell c = cell_at(origin.i0 + a, origin.k0 + b, origin.layer);
    const int qa = a + halo_x, qb = b + halo_z;  // the cell's place among the loaded points
    const bool init_is_input = this->init_is_input();
    const std::size_t out_stride = arrays.shape.var_stride();
    double* out = arrays.out_at(c.k, c.j, c.i);
    const StageFactors factors = stage_factors_3d<D>(context);
    const double source = momentum_source_3d<D>(c.i, c.j, c.k, context, wave_source);
    for (int v = 0; v < V::count; ++v) {
      const double high = x_pass ? tile.flux[v][b][a + 1] : tile.flux[v][b + 1][a];
      const double density_perturbation = z_pass && v == V::wmom ? tile.q[V::dens][qb][qa] : 0.0;
      const double tendency = stage_tendency<D, V>(v, tile.flux[v][b][a], high, density_perturbation, source, factors);
      out[v * out_stride] = stage_update(init_is_input ? tile.q[v][qb][qa] : tile.init[v][b][a], tendency, factors.dt);
    }
  }
};

}  // namespace simapp
