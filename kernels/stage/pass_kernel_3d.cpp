#include "kernels/stage/pass_kernel_3d.hpp"

#include "kernels/stage/pass_tile_3d.hpp"
#include "kernels/stage/pass_tiles_launch.hpp"

namespace simapp {

namespace {

/// The tiles of each pass (docs/performance/journal/2026-12-04-pass-granularity.md, the tiles' shapes), each
/// with a thread per face of its first stage (threads = lines × (cells + 9)), so that no face phase
/// takes a second round of a few threads while the others wait at the barrier: along x, rows of
/// 4 × 23 or 2 × 55 cells, whichever loads fewer cells a row; across lines (y, z), 4 lines × 23
/// cells, or 8 × 7 on lines shorter than 32 cells, where a grid needs small tiles to give every
/// multiprocessor work.
using ShortRows = PassTile3d<Direction::x, 128, 4, 23>;
using LongRows = PassTile3d<Direction::x, 128, 2, 55>;
template <Direction D>
using ShortColumns = PassTile3d<D, 128, 8, 7>;
template <Direction D>
using LongColumns = PassTile3d<D, 128, 4, 23>;
constexpr int long_columns_from = 32;

template <class Pass>
void launch(const Stream& stream, const FieldView<const double, 3>& input, const FieldView<double, 3>& output,
            const CellGeometry<3>& geometry, const HydrostaticView& background, const StepParams<3>* params,
            const Bump<3>& wave_source) {
  Pass pass{};
  set_pass(pass, input, output, geometry, background, params, wave_source);
  constexpr Direction d = Pass::direction;
  launch_pass_tiles(d == Direction::x ? "pass3d_x" : d == Direction::y ? "pass3d_y" : "pass3d_z", stream, pass);
}

template <Direction D>
void launch_columns(const Stream& stream, const FieldView<const double, 3>& input, const FieldView<double, 3>& output,
                    const CellGeometry<3>& geometry, const HydrostaticView& background, const StepParams<3>* params,
                    const Bump<3>& wave_source) {
  const int length = D == Direction::y ? input.shape.ny : input.shape.nz;
  if (length < long_columns_from)
    launch<ShortColumns<D>>(stream, input, output, geometry, background, params, wave_source);
  else
    launch<LongColumns<D>>(stream, input, output, geometry, background, params, wave_source);
}

}  // namespace

void apply_pass_3d(const Stream& stream, Direction direction, const FieldView<const double, 3>& input,
                   const FieldView<double, 3>& output, const CellGeometry<3>& geometry,
                   const HydrostaticView& background, const StepParams<3>* params, const Bump<3>& wave_source) {
  switch (direction) {
    case Direction::x:
      if (LongRows::cells_loaded_along(input.shape.nx) < ShortRows::cells_loaded_along(input.shape.nx))
        launch<LongRows>(stream, input, output, geometry, background, params, wave_source);
      else
        launch<ShortRows>(stream, input, output, geometry, background, params, wave_source);
      return;
    case Direction::y:
      launch_columns<Direction::y>(stream, input, output, geometry, background, params, wave_source);
      return;
    case Direction::z:
      launch_columns<Direction::z>(stream, input, output, geometry, background, params, wave_source);
      return;
  }
}

}  // namespace simapp
