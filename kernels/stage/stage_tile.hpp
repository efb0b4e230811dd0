#pragma once
/// The stage kernel's work on one tile (kernels/stage/stage_kernel.hpp), in the three phases
/// parallel_for_tiles runs: shared by the stage kernels and the persistent kernel.
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include "kernels/backend/tile_copy.hpp"
#include "kernels/backend/tile_origin.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "kernels/stage/stage_tile_shape.hpp"
#include "kernels/update/stage_tendency.hpp"

namespace simapp {

/// The stage as a tiled kernel (stage_tile_shape.hpp). Tiles are long along x (coalesced rows);
/// the x pass loads two ghost columns each side, the z pass two ghost rows.
template <Direction D, int Threads = 384>
struct StageKernel : StageTileShape<D == Direction::x, Threads, var::count> {
  using Shape = StageTileShape<D == Direction::x, Threads, var::count>;
  using Shape::halo_x, Shape::halo_z;
  using typename Shape::Tile;
  static constexpr bool x_pass = D == Direction::x;

  StageArrays arrays;
  FluxContext<2> context;
  Bump<2> wave_source;
  BoundaryConditions<2> sides;  ///< what makes the ghost cells of each side

  /// Where the stage input at (i, k) is read: along x a periodic image where the side copies
  /// one (point_read); the rules of input_at change what is read there.
  SIMAPP_HOST_DEVICE const double* input_cell(int i, int k) const {
    if constexpr (x_pass) return arrays.forcing_at(k, point_read(i, arrays.shape.nx, sides.x_low, sides.x_high));
    return arrays.forcing_at(k, i);
  }

  /// The stage input at cell (i, k), which may be a ghost cell: by rule, or from memory.
  SIMAPP_HOST_DEVICE void input_at(int i, int k, double q[var::count]) const {
    const HydrostaticView& background = context.background;
    const std::size_t stride = arrays.shape.var_stride();
    if constexpr (x_pass) {
      const double* cell = input_cell(i, k);
      for (int v = 0; v < var::count; ++v) q[v] = cell[v * stride];
      if (i < 0 && sides.x_low.has_inflow() &&
          sides.inflow.applies(context.geometry.z_center(k), context.geometry.zlen))
        apply_inflow(q, background.cell_density(k), background.cell_rho_theta(k), sides.inflow);
    } else {
      const int nz = arrays.shape.nz;
      const bool low_wall = k < 0 && sides.z_low.is_wall();
      const bool high_wall = k >= nz && sides.z_high.is_wall();
      if (low_wall || high_wall) {
        const int adjacent = low_wall ? 0 : nz - 1;
        const double* cell = arrays.forcing_at(adjacent, i);
        for (int v = 0; v < var::count; ++v)
          q[v] = wall_ghost<ModelVariables<2>>(v, cell[v * stride], background.cell_density(adjacent),
                                               background.cell_density(k));
      } else {
        const double* cell = arrays.forcing_at(k, i);
        for (int v = 0; v < var::count; ++v) q[v] = cell[v * stride];
      }
    }
  }

  /// Whether a rule computes any point the tile loads (an inflow's rows, a wall's rows); every
  /// other point, periodic images included, is read from memory without testing the rules
  /// point by point. Deciding this before the loads costs them: the x pass reads periodic
  /// images by address instead (docs/performance/journal/2026-12-04-periodic-ghosts-by-address.md).
  SIMAPP_HOST_DEVICE bool needs_rules(const TileOrigin& origin) const {
    if constexpr (x_pass) {
      return sides.x_low.has_inflow() && origin.i0 - halo_x < 0;
    } else {
      return (sides.z_low.is_wall() && origin.k0 - halo_z < 0) ||
             (sides.z_high.is_wall() && origin.k0 + origin.nk + halo_z > arrays.shape.nz);
    }
  }

  /// Whether the step's initial state is the stage input (a first stage): then the tile's
  /// loaded points hold it.
  SIMAPP_HOST_DEVICE bool init_is_input() const { return arrays.init == arrays.forcing; }

  SIMAPP_HOST_DEVICE void load(Tile& tile, const TileOrigin& origin, int a, int b) const {
    const int i = origin.i0 - halo_x + a, k = origin.k0 - halo_z + b;
    if (needs_rules(origin)) {
      double q[var::count];
      input_at(i, k, q);
      for (int v = 0; v < var::count; ++v) tile.q[v][b][a] = q[v];
    } else {
      const double* cell = input_cell(i, k);
      const std::size_t stride = arrays.shape.var_stride();
      for (int v = 0; v < var::count; ++v) copy_into_tile(tile.q[v][b][a], cell[v * stride]);
    }
    load_init(tile, origin, a - halo_x, b - halo_z);
  }

  /// The step's initial state at the tile's cell (ca, cb), read with the stage input: read in
  /// the update, after two barriers, its loads had nothing left to hide their latency behind
  /// (the later stages waited on them: docs/performance/journal/2026-12-01-stage-loads.md).
  SIMAPP_HOST_DEVICE void load_init(Tile& tile, const TileOrigin& origin, int ca, int cb) const {
    if (init_is_input() || ca < 0 || ca >= origin.ni || cb < 0 || cb >= origin.nk) return;
    const double* cell = arrays.init_at(origin.k0 + cb, origin.i0 + ca);
    const std::size_t stride = arrays.shape.var_stride();
    for (int v = 0; v < var::count; ++v) copy_into_tile(tile.init[v][cb][ca], cell[v * stride]);
  }

  /// Face a (x) or b (z) of the tile lies between its cells a − 1 and a (b − 1 and b), so its
  /// four stencil cells are tile points a … a + 3 (b … b + 3).
  SIMAPP_HOST_DEVICE void face(Tile& tile, const TileOrigin& origin, int a, int b) const {
    double q[var::count], d3[var::count], f[var::count];
    for (int v = 0; v < var::count; ++v) {
      double s[4];
      for (int n = 0; n < 4; ++n) s[n] = x_pass ? tile.q[v][b][a + n] : tile.q[v][b + n][a];
      q[v] = face_value(s[0], s[1], s[2], s[3]);
      d3[v] = third_difference(s[0], s[1], s[2], s[3]);
    }
    flux_at_face<D>(q, d3, origin.k0 + b, context, f);
    if (viscosity_over_spacing<D>(context) != 0.0) {  // the two cells either side of the face
      double low[var::count], high[var::count];
      for (int v = 0; v < var::count; ++v) {
        low[v] = x_pass ? tile.q[v][b][a + 1] : tile.q[v][b + 1][a];
        high[v] = x_pass ? tile.q[v][b][a + 2] : tile.q[v][b + 2][a];
      }
      add_diffusive_flux<D>(low, high, q[var::dens], origin.k0 + b, context, f);
    }
    for (int v = 0; v < var::count; ++v) tile.flux[v][b][a] = f[v];
  }

  SIMAPP_HOST_DEVICE void cell(const Tile& tile, const TileOrigin& origin, int a, int b) const {
    const int i = origin.i0 + a, k = origin.k0 + b;
    const int qa = a + halo_x, qb = b + halo_z;  // the cell's place among the loaded points
    const bool init_is_input = this->init_is_input();
    const std::size_t out_stride = arrays.shape.var_stride();
    double* out = arrays.out_at(k, i);
    const StageFactors factors = stage_factors<D>(context);
    const double source = momentum_source(k, i, context, wave_source);
    for (int v = 0; v < var::count; ++v) {
      const double high = x_pass ? tile.flux[v][b][a + 1] : tile.flux[v][b + 1][a];
      const double density_perturbation = !x_pass && v == var::wmom ? tile.q[var::dens][qb][qa] : 0.0;
      const double tendency = stage_tendency<D>(v, tile.flux[v][b][a], high, density_perturbation, source, factors);
      out[v * out_stride] = stage_update(init_is_input ? tile.q[v][qb][qa] : tile.init[v][b][a], tendency, factors.dt);
    }
  }
};

}  // namespace simapp
