#include "kernels/stage/pass_kernel.hpp"

#include <type_traits>

#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/pass_tiles_launch.hpp"

namespace simapp {
namespace {

/// The tiles of each pass (docs/performance/journal/2026-12-04-pass-granularity.md, the tiles'
/// shapes), each with a thread per face of its first stage (threads = lines × (cells + 9)) where
/// it can, so that no face phase takes a second round of a few threads while the others wait at
/// the barrier: along x, rows of 4 × 23 or 2 × 55 cells, whichever loads fewer cells a row; across
/// lines, 8 lines × 7 cells on lines shorter than 32 cells, where a grid needs small tiles to give
/// every multiprocessor work, else 4 × 23 in 3-D and 8 columns × 32 cells in 2-D (at 4096 × 2048
/// the 4 × 23 columns took 10 % longer).
template <int Dims>
using ShortRows = PassTile<Direction::x, Dims, 128, 4, 23>;
template <int Dims>
using LongRows = PassTile<Direction::x, Dims, 128, 2, 55>;
template <Direction D, int Dims>
using ShortColumns = PassTile<D, Dims, 128, 8, 7>;
template <Direction D, int Dims>
using LongColumns = std::conditional_t<Dims == 3, PassTile<D, 3, 128, 4, 23>, PassTile<D, 2, 256, 8, 32>>;
constexpr int long_columns_from = 32;

template <class Pass, int Dims>
void launch(const Stream& stream, const FieldView<const double, Dims>& input, const FieldView<double, Dims>& output,
            const CellGeometry<Dims>& geometry, const HydrostaticView& background, const StepParams<Dims>* params,
            const SourceTerms<Dims>& sources) {
  Pass pass{};
  set_pass(pass, input, output, geometry, background, params, sources);
  launch_pass_tiles(direction_label<Pass::direction>("pass_x", "pass_y", "pass_z"), stream, pass);
}

template <Direction D, int Dims>
void launch_along(const Stream& stream, const FieldView<const double, Dims>& input,
                  const FieldView<double, Dims>& output, const CellGeometry<Dims>& geometry,
                  const HydrostaticView& background, const StepParams<Dims>* params, const SourceTerms<Dims>& sources) {
  const FieldShape<Dims>& shape = input.shape;
  if constexpr (D == Direction::x) {
    if (LongRows<Dims>::cells_loaded_along(shape.nx) < ShortRows<Dims>::cells_loaded_along(shape.nx))
      launch<LongRows<Dims>>(stream, input, output, geometry, background, params, sources);
    else
      launch<ShortRows<Dims>>(stream, input, output, geometry, background, params, sources);
  } else {
    const int length = D == Direction::y ? shape.ny : shape.nz;
    if (length < long_columns_from)
      launch<ShortColumns<D, Dims>>(stream, input, output, geometry, background, params, sources);
    else
      launch<LongColumns<D, Dims>>(stream, input, output, geometry, background, params, sources);
  }
}

}  // namespace

template <int Dims>
void apply_pass(const Stream& stream, Direction direction, const FieldOf<const double, Dims>& input,
                const FieldView<double, Dims>& output, const CellGeometry<Dims>& geometry,
                const HydrostaticView& background, const StepParams<Dims>* params, const SourceTerms<Dims>& sources) {
  with_direction_of<Dims>(direction, [&](auto d) {
    launch_along<decltype(d)::value>(stream, input, output, geometry, background, params, sources);
  });
}

template void apply_pass<2>(const Stream&, Direction, const FieldOf<const double, 2>&, const FieldView<double, 2>&,
                            const CellGeometry<2>&, const HydrostaticView&, const StepParams<2>*,
                            const SourceTerms<2>&);
template void apply_pass<3>(const Stream&, Direction, const FieldOf<const double, 3>&, const FieldView<double, 3>&,
                            const CellGeometry<3>&, const HydrostaticView&, const StepParams<3>*,
                            const SourceTerms<3>&);

}  // namespace simapp
