#include "kernels/stage/stage_kernel_3d.hpp"

#include <stdexcept>

#include "kernels/backend/parallel_for_tiles.hpp"
#include "kernels/stage/stage_tile_3d.hpp"

namespace simapp {

namespace {

template <Direction D>
void launch_stage_3d(const Stream& stream, const StageArrays3d& arrays, const FluxContext<3>& context,
                     const Bump<3>& wave_source, const BoundaryConditions<3>& sides, const CellBox& cells) {
  constexpr bool z_pass = D == Direction::z;
  const IndexBox plane = z_pass ? IndexBox{cells.i_lo, cells.i_hi, cells.k_lo, cells.k_hi}
                                : IndexBox{cells.i_lo, cells.i_hi, cells.j_lo, cells.j_hi};
  const LayerRange layers = z_pass ? LayerRange{cells.j_lo, cells.j_hi} : LayerRange{cells.k_lo, cells.k_hi};
  const char* label = D == Direction::x ? "stage3d_x" : D == Direction::y ? "stage3d_y" : "stage3d_z";
  parallel_for_layered_tiles(label, stream, plane, layers, StageKernel3d<D>{{}, arrays, context, wave_source, sides});
}

}  // namespace

void apply_stage_3d(const Stream& stream, Direction direction, const StageArrays3d& arrays,
                    const FluxContext<3>& context, const Bump<3>& wave_source, const BoundaryConditions<3>& sides,
                    const CellBox& cells) {
  switch (direction) {
    case Direction::x: launch_stage_3d<Direction::x>(stream, arrays, context, wave_source, sides, cells); return;
    case Direction::y: launch_stage_3d<Direction::y>(stream, arrays, context, wave_source, sides, cells); return;
    case Direction::z: launch_stage_3d<Direction::z>(stream, arrays, context, wave_source, sides, cells); return;
  }
  throw std::invalid_argument("apply_stage_3d: no such direction");
}

namespace {

/// The interior cells of `shape` with cells [lo, hi) along `direction`.
CellBox cells_along(Direction direction, const FieldShape<3>& shape, int lo, int hi) {
  CellBox box = interior_cells(shape);
  switch (direction) {
    case Direction::x: box.i_lo = lo, box.i_hi = hi; break;
    case Direction::y: box.j_lo = lo, box.j_hi = hi; break;
    case Direction::z: box.k_lo = lo, box.k_hi = hi; break;
  }
  return box;
}

int cells_along(Direction direction, const FieldShape<3>& shape) {
  return direction == Direction::x ? shape.nx : direction == Direction::y ? shape.ny : shape.nz;
}

}  // namespace

CellBox stage_interior_cells_3d(Direction direction, const FieldShape<3>& shape) {
  return cells_along(direction, shape, 2, cells_along(direction, shape) - 2);
}

CellBox stage_low_cells_3d(Direction direction, const FieldShape<3>& shape) {
  return cells_along(direction, shape, 0, 2);
}

CellBox stage_high_cells_3d(Direction direction, const FieldShape<3>& shape) {
  const int n = cells_along(direction, shape);
  return cells_along(direction, shape, n - 2, n);
}

}  // namespace simapp
