#pragma once
/// The microphysics of one column by one CUDA block (CUDA only): the block's threads as a
/// ColumnTeam run microphysics_column (microphysics_column.hpp), levels k, k + blockDim.x, … on
/// thread k, the column's values in shared memory. apply_microphysics' kernel runs a block a
/// column; a persistent kernel may loop its blocks over the columns,
///   for (int c = blockIdx.x; c < nx * ny; c += gridDim.x)
///     run_microphysics_of_column(m, dt, c % nx, c / nx, shared);
/// with the same bits, whatever its block size: the reductions' order is the level index's
/// (column_team.hpp), not the threads'.
///
/// Shared memory: microphysics_shared_doubles(nz) = MicrophysicsScratch::count · nz = 9 nz
/// doubles (72 nz bytes: 9216 B at nz = 128), independent of the block size; with nullptr for it
/// the column's values lie in the scratch field m.scratch instead (same bits).
#include "kernels/backend/column_team.hpp"
#include "kernels/microphysics/microphysics_column.hpp"

namespace simapp {

/// The barrier of a block's threads.
struct BlockBarrier {
  __device__ void operator()() const { __syncthreads(); }
};

/// Steps 1–5 of the microphysics (microphysics.hpp) on column (i, j) over dt (s) by the calling
/// block, every thread of which must call it (it holds barriers): the column's values in
/// `shared`, microphysics_shared_doubles(nz) doubles of the block's shared memory, or, where
/// `shared` is nullptr, in m.scratch. Every thread returns after a barrier, `shared` free again.
template <int Dims>
__device__ void run_microphysics_of_column(const MicrophysicsArguments<Dims>& m, double dt, int i, int j,
                                           double* shared) {
  const ColumnTeam<BlockBarrier> team{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x), {}};
  const MicrophysicsStorage column =
      shared != nullptr ? shared_storage(shared, m.state.shape.nz) : scratch_storage(m, i, j);
  microphysics_column(team, m, dt, i, j, column);
}

}  // namespace simapp
