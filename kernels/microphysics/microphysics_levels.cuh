#pragma once
/// Steps 1–5 of the microphysics element (microphysics.hpp) on 32 neighbouring columns by one
/// CUDA block, the levels at once: a warp takes a level of each of the 32 columns (a lane a
/// column, so every load and store is coalesced), the block's warps take consecutive levels from
/// the top down, a chunk of levels at a time. A column's chain of dependent work is then a level
/// a chunk instead of a level after another, which is what a grid of few columns needs (a thread a
/// column, microphysics_column.hpp, leaves most of the GPU idle there and waits on one thread's
/// nz levels in a row).
///
/// The same bits as microphysics_column: each level's arithmetic is kessler.hpp's (level_substep,
/// adjustment_only); a level's sub-step starts from the flux r q_r V of the level above at the
/// sub-step's start, which its warp shares before any level changes; the sums over the column (the
/// hole filling's, by every thread; the clipped water's, by warp 0) follow kessler_column's order;
/// the sub-step limit is a minimum, the same in any order. CUDA only.
#include "kernels/microphysics/microphysics_column.hpp"

namespace simapp {

/// A thread of the block: its lane (column), its warp (level in a chunk) and the block's warps.
struct LevelGroupThread {
  int lane;
  int warp;
  int warps;
};

/// What the block's threads hand each other, [warp][lane], for blocks of at most MaxWarps warps.
template <int MaxWarps>
struct LevelGroupShared {
  static constexpr int max_warps = MaxWarps;
  double value[MaxWarps][level_group_columns];    ///< sub-step limits; a chunk's fluxes; the ground's rate
  double clipped[MaxWarps][level_group_columns];  ///< a chunk's levels' clipped water
};

namespace detail {

/// The block's loop over a column's levels, top down, `warps` at a time; every thread of the
/// block runs every chunk (they meet at barriers), a thread whose level is below 0 idles.
struct LevelChunks {
  int nz;
  LevelGroupThread t;

  __device__ int count() const { return (nz + t.warps - 1) / t.warps; }
  /// This thread's level in chunk c (< 0: none).
  __device__ int level(int c) const { return nz - 1 - (c * t.warps + t.warp); }
  /// Levels in chunk c.
  __device__ int levels(int c) const { return min(t.warps, nz - c * t.warps); }
};

/// Warp 0 adds chunk c's clipped water to `total`, its levels top down (kessler_column's order).
template <class Shared>
__device__ void add_chunk_clipped(const Shared& s, const LevelChunks& chunks, int c, double& total) {
  for (int u = 0; u < chunks.levels(c); ++u) total += s.clipped[u][chunks.t.lane];
}

/// physics.rain: off: each level's saturation adjustment.
template <int Dims, class Real, class Shared>
__device__ void adjust_levels(const StateColumn<Dims, Real>& column, bool valid, const LevelChunks& chunks, Shared& s,
                              KesslerOutcome& outcome) {
  const double dz = column.m.geometry.dz;
  for (int c = 0; c < chunks.count(); ++c) {
    const int k = chunks.level(c);
    double clipped = 0.0;
    if (valid && k >= 0) {
      auto level = column.load(k, true);
      clipped = kessler::adjustment_only(level, dz);
      column.store(k, true, level);
    }
    s.clipped[chunks.t.warp][chunks.t.lane] = clipped;
    __syncthreads();
    if (chunks.t.warp == 0) add_chunk_clipped(s, chunks, c, outcome.clipped);
    __syncthreads();
  }
}

/// The rain's sub-steps over dt (kessler_column), the levels of a chunk at once.
template <int Dims, class Real, class Shared>
__device__ void rain_levels(const StateColumn<Dims, Real>& column, bool valid, const LevelChunks& chunks, double dt,
                            Shared& s, KesslerOutcome& outcome) {
  using namespace kessler;
  const LevelGroupThread t = chunks.t;
  const int nz = chunks.nz;
  const double dz = column.m.geometry.dz;
  const double rho_d_ground = valid ? column.load(0, true).rho_d : 1.0;
  double limit = dt;
  for (int c = 0; c < chunks.count(); ++c) {
    const int k = chunks.level(c);
    if (valid && k >= 0 && k + 1 < nz)
      limit = substep_limit(limit, dz, rain_fall(column.load(k, true), rho_d_ground).speed);
  }
  s.value[t.warp][t.lane] = limit;
  __syncthreads();
  double dt_max = dt;
  for (int u = 0; u < t.warps; ++u) dt_max = fmin(dt_max, s.value[u][t.lane]);
  const int substeps = valid ? substep_count(dt, dt_max) : 0;
  const int block_substeps = __reduce_max_sync(0xffffffffu, substeps);  // each warp's lanes are the same columns
  const double dt0 = dt / substeps;
  double rate = 0.0;
  double flux_above_chunk = 0.0;  // warp 0's: of the level above its chunk
  __syncthreads();
  for (int n = 0; n < block_substeps; ++n) {
    const bool substep = n < substeps;
    for (int c = 0; c < chunks.count(); ++c) {
      const int k = chunks.level(c);
      const bool active = valid && substep && k >= 0;
      StateLevel level{};
      RainFall fall{0.0, 0.0};
      if (active) {
        level = column.load(k, n == 0);
        fall = rain_fall(level, rho_d_ground);
      }
      s.value[t.warp][t.lane] = fall.flux;
      __syncthreads();
      const double flux_above = t.warp > 0 ? s.value[t.warp - 1][t.lane] : flux_above_chunk;
      if (t.warp == 0) flux_above_chunk = s.value[chunks.levels(c) - 1][t.lane];
      double clipped = 0.0;
      if (active) {
        if (k == 0) rate += ground_rain_rate(level, fall);
        clipped = level_substep(level, k + 1 == nz, dz, dt0, fall, flux_above);
        column.store(k, n + 1 == substeps, level);
      }
      s.clipped[t.warp][t.lane] = clipped;
      __syncthreads();
      if (t.warp == 0 && substep) add_chunk_clipped(s, chunks, c, outcome.clipped);
      __syncthreads();
    }
  }
  if (t.warp == (nz - 1) % t.warps) s.value[0][t.lane] = rate;  // level 0's warp
  __syncthreads();
  outcome.rain_rate = s.value[0][t.lane] / substeps;
  outcome.substeps = substeps;
}

}  // namespace detail

/// Steps 1–5 over dt (s) on columns first_column, first_column + 1, … (the block's 32, a lane each,
/// those past the rank's last idle). Every thread of the block calls it; the block is 32 lanes by
/// t.warps ≤ Shared::max_warps warps. Every thread takes its column's hole-filling sums itself
/// (the block would wait for them anyway).
template <int Dims, class Real, class Shared>
__device__ void microphysics_levels(const MicrophysicsArguments<Dims, Real>& m, double dt, int first_column,
                                    LevelGroupThread t, Shared& s) {
  const int nx = m.state.shape.nx;
  const int column_index = first_column + t.lane;
  const bool valid = column_index < nx * m.state.shape.ny;
  const int i = valid ? column_index % nx : 0;
  const int j = valid ? column_index / nx : 0;
  HoleFill fills[water_tracers];
  double hole_fill_clipped = 0.0;
  if (valid) column_fills(m, i, j, fills, hole_fill_clipped);
  const detail::StateColumn<Dims, Real> column{m, fills, i, j};
  const detail::LevelChunks chunks{m.state.shape.nz, t};
  KesslerOutcome outcome;
  if (m.rain) {
    detail::rain_levels(column, valid, chunks, dt, s, outcome);
  } else {
    detail::adjust_levels(column, valid, chunks, s, outcome);
  }
  if (t.warp == 0 && valid) add_to_surface(m, dt, i, j, outcome, hole_fill_clipped);
  __syncthreads();  // s is the block's again
}

}  // namespace simapp
