#include "kernels/stage/pass_kernel.hpp"

#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/pass_tiles_launch.hpp"

namespace simapp {

namespace {

/// The tiles of each pass (docs/performance/journal/2026-12-04-pass-granularity.md, the tiles' shapes): along
/// x, the 3-D model's rows (pass_kernel_3d.cpp), 4 × 23 or 2 × 55 cells, whichever loads fewer
/// cells a row; along z, 8 columns × 32 cells, or 8 × 7 on columns shorter than 32 cells (at
/// 4096 × 2048 the 3-D model's 4 × 23 columns took 10 % longer; unlike the 3-D tiles, the 2-D
/// ones keep each column's positions together in shared memory).
using ShortRows = PassTile<Direction::x, 128, 4, 23>;
using LongRows = PassTile<Direction::x, 128, 2, 55>;
using ShortColumns = PassTile<Direction::z, 128, 8, 7>;
using LongColumns = PassTile<Direction::z, 256, 8, 32>;
constexpr int long_columns_from = 32;

template <class Pass>
void launch(const Stream& stream, const FieldView<const double, 2>& input, const FieldView<double, 2>& output,
            const CellGeometry<2>& geometry, const HydrostaticView& background, const StepParams<2>* params,
            const Bump<2>& wave_source) {
  Pass pass{};
  set_pass(pass, input, output, geometry, background, params, wave_source);
  launch_pass_tiles(Pass::direction == Direction::x ? "pass_x" : "pass_z", stream, pass);
}

}  // namespace

void apply_pass(const Stream& stream, Direction direction, const FieldView<const double, 2>& input,
                const FieldView<double, 2>& output, const CellGeometry<2>& geometry, const HydrostaticView& background,
                const StepParams<2>* params, const Bump<2>& wave_source) {
  const FieldShape<2>& shape = input.shape;
  if (direction == Direction::x) {
    if (LongRows::cells_loaded_along(shape.nx) < ShortRows::cells_loaded_along(shape.nx))
      launch<LongRows>(stream, input, output, geometry, background, params, wave_source);
    else
      launch<ShortRows>(stream, input, output, geometry, background, params, wave_source);
  } else if (shape.nz < long_columns_from) {
    launch<ShortColumns>(stream, input, output, geometry, background, params, wave_source);
  } else {
    launch<LongColumns>(stream, input, output, geometry, background, params, wave_source);
  }
}

}  // namespace simapp
