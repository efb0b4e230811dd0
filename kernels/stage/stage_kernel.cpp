#include "kernels/stage/stage_kernel.hpp"

#include "kernels/backend/parallel_for_tiles.hpp"
#include "kernels/stage/stage_tile.hpp"

namespace simapp {

namespace {

template <Direction D>
void launch_stage(const Stream& stream, const StageArrays& arrays, const FluxContext<2>& context,
                  const Bump<2>& wave_source, const BoundaryConditions<2>& sides, const IndexBox& cells) {
  parallel_for_tiles(D == Direction::x ? "stage_x" : "stage_z", stream, cells,
                     StageKernel<D>{{}, arrays, context, wave_source, sides});
}

/// Cells [lo, hi) along the pass, all across it.
IndexBox along_pass(Direction direction, int nx, int nz, int lo, int hi) {
  return direction == Direction::x ? IndexBox{lo, hi, 0, nz} : IndexBox{0, nx, lo, hi};
}

int cells_along(Direction direction, int nx, int nz) { return direction == Direction::x ? nx : nz; }

}  // namespace

void apply_stage(const Stream& stream, Direction direction, const StageArrays& arrays, const FluxContext<2>& context,
                 const Bump<2>& wave_source, const BoundaryConditions<2>& sides, const IndexBox& cells) {
  with_direction(direction,
                 [&](auto d) { launch_stage<decltype(d)::value>(stream, arrays, context, wave_source, sides, cells); });
}

IndexBox stage_interior_cells(Direction direction, int nx, int nz) {
  return along_pass(direction, nx, nz, 2, cells_along(direction, nx, nz) - 2);
}

IndexBox stage_low_cells(Direction direction, int nx, int nz) { return along_pass(direction, nx, nz, 0, 2); }

IndexBox stage_high_cells(Direction direction, int nx, int nz) {
  const int n = cells_along(direction, nx, nz);
  return along_pass(direction, nx, nz, n - 2, n);
}

}  // namespace simapp
