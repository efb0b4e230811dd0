#include "kernels/stage/stage_kernel.hpp"

#include "kernels/backend/parallel_for_tiles.hpp"
#include "kernels/stage/stage_tile.hpp"

namespace simapp {
namespace {

template <Direction D, class Real, int Dims>
void launch_stage(const Stream& stream, const StageArrays<Real, Dims>& arrays, const FluxContext<Dims>& context,
                  const SourceTerms<Dims>& sources, const BoundaryConditions<Dims>& sides, const CellBox& cells) {
  const char* label = direction_label<D>("stage_x", "stage_y", "stage_z");
  const StageKernel<D, Dims, Real> kernel{{}, arrays, context, sources, sides};
  if constexpr (Dims == 2) {
    parallel_for_tiles(label, stream, IndexBox{cells.i_lo, cells.i_hi, cells.k_lo, cells.k_hi}, kernel);
  } else {
    constexpr bool z_pass = D == Direction::z;
    const IndexBox plane = z_pass ? IndexBox{cells.i_lo, cells.i_hi, cells.k_lo, cells.k_hi}
                                  : IndexBox{cells.i_lo, cells.i_hi, cells.j_lo, cells.j_hi};
    const LayerRange layers = z_pass ? LayerRange{cells.j_lo, cells.j_hi} : LayerRange{cells.k_lo, cells.k_hi};
    parallel_for_layered_tiles(label, stream, plane, layers, kernel);
  }
}

/// The interior cells of `shape` with cells [lo, hi) along `direction`.
template <int Dims>
CellBox cells_along(Direction direction, const FieldShape<Dims>& shape, int lo, int hi) {
  CellBox box = interior_cells(shape);
  switch (direction) {
    case Direction::x: box.i_lo = lo, box.i_hi = hi; break;
    case Direction::y: box.j_lo = lo, box.j_hi = hi; break;
    case Direction::z: box.k_lo = lo, box.k_hi = hi; break;
  }
  return box;
}

template <int Dims>
int cells_along(Direction direction, const FieldShape<Dims>& shape) {
  return direction == Direction::x ? shape.nx : direction == Direction::y ? shape.ny : shape.nz;
}

}  // namespace

template <class Real, int Dims>
void apply_stage(const Stream& stream, Direction direction, const StageArrays<Real, Dims>& arrays,
                 const FluxContext<Dims>& context, const SourceTerms<Dims>& sources,
                 const BoundaryConditions<Dims>& sides, const CellBox& cells) {
  with_direction_of<Dims>(
      direction, [&](auto d) { launch_stage<decltype(d)::value>(stream, arrays, context, sources, sides, cells); });
}

template <int Dims>
CellBox stage_interior_cells(Direction direction, const FieldShape<Dims>& shape) {
  return cells_along(direction, shape, 2, cells_along(direction, shape) - 2);
}

template <int Dims>
CellBox stage_low_cells(Direction direction, const FieldShape<Dims>& shape) {
  return cells_along(direction, shape, 0, 2);
}

template <int Dims>
CellBox stage_high_cells(Direction direction, const FieldShape<Dims>& shape) {
  const int n = cells_along(direction, shape);
  return cells_along(direction, shape, n - 2, n);
}

#define SIMAPP_STAGE_KERNEL_OF(Dims)                                                                  \
  template void apply_stage<double, Dims>(const Stream&, Direction, const StageArrays<double, Dims>&, \
                                          const FluxContext<Dims>&, const SourceTerms<Dims>&,         \
                                          const BoundaryConditions<Dims>&, const CellBox&);           \
  template void apply_stage<float, Dims>(const Stream&, Direction, const StageArrays<float, Dims>&,   \
                                         const FluxContext<Dims>&, const SourceTerms<Dims>&,          \
                                         const BoundaryConditions<Dims>&, const CellBox&);            \
  template CellBox stage_interior_cells<Dims>(Direction, const FieldShape<Dims>&);                    \
  template CellBox stage_low_cells<Dims>(Direction, const FieldShape<Dims>&);                         \
  template CellBox stage_high_cells<Dims>(Direction, const FieldShape<Dims>&);
SIMAPP_STAGE_KERNEL_OF(2)
SIMAPP_STAGE_KERNEL_OF(3)
#undef SIMAPP_STAGE_KERNEL_OF

}  // namespace simapp
