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
/// the 4 × 23 columns took 10 % longer). Each with `Tracers` tracers after the dry variables.
template <int Dims, int Tracers>
using ShortRows = PassTile<Direction::x, Dims, 128, 4, 23, Tracers>;
template <int Dims, int Tracers>
using LongRows = PassTile<Direction::x, Dims, 128, 2, 55, Tracers>;
template <Direction D, int Dims, int Tracers>
using ShortColumns = PassTile<D, Dims, 128, 8, 7, Tracers>;
/// The 2-D columns of 8 × 32 need 44288 B of shared memory for the 4 dry variables (3 stages ×
/// 8 lines × 44 positions and 8 × 41 fluxes, of each variable, 8 B a value) and 55360 B with one
/// tracer, beyond the 48 KB a block may have unasked: with tracers the 2-D model takes the 3-D
/// model's 4 × 23 on 128 threads (30688 B with 3 tracers, 35072 B with 4).
template <Direction D, int Dims, int Tracers>
using LongColumns = std::conditional_t<
    Dims == 3, PassTile<D, 3, 128, 4, 23, Tracers>,
    std::conditional_t<Tracers == 0, PassTile<D, 2, 256, 8, 32>, PassTile<D, 2, 128, 4, 23, Tracers>>>;
constexpr int long_columns_from = 32;

/// What a pass reads besides its arrays.
template <int Dims>
struct PassInputs {
  CellGeometry<Dims> geometry;
  HydrostaticView background;
  const StepParams<Dims>* params = nullptr;
  SourceTerms<Dims> sources;
  TracerBackground tracers;
};

template <class Pass, int Dims>
void launch(const Stream& stream, const FieldView<const double, Dims>& input, const FieldView<double, Dims>& output,
            const PassInputs<Dims>& with) {
  static_assert(sizeof(typename Pass::Tile) <= 48 * 1024, "a pass tile within the shared memory a block has unasked");
  Pass pass{};
  set_pass(pass, input, output, with.geometry, with.background, with.params, with.sources);
  if constexpr (Pass::tracers > 0) pass.tracer_background = with.tracers;
  launch_pass_tiles(direction_label<Pass::direction>("pass_x", "pass_y", "pass_z"), stream, pass);
}

template <Direction D, int Dims, int Tracers>
void launch_along(const Stream& stream, const FieldView<const double, Dims>& input,
                  const FieldView<double, Dims>& output, const PassInputs<Dims>& with) {
  const FieldShape<Dims>& shape = input.shape;
  if constexpr (D == Direction::x) {
    if (LongRows<Dims, Tracers>::cells_loaded_along(shape.nx) < ShortRows<Dims, Tracers>::cells_loaded_along(shape.nx))
      launch<LongRows<Dims, Tracers>>(stream, input, output, with);
    else
      launch<ShortRows<Dims, Tracers>>(stream, input, output, with);
  } else {
    const int length = D == Direction::y ? shape.ny : shape.nz;
    if (length < long_columns_from)
      launch<ShortColumns<D, Dims, Tracers>>(stream, input, output, with);
    else
      launch<LongColumns<D, Dims, Tracers>>(stream, input, output, with);
  }
}

}  // namespace

template <int Dims>
void apply_pass(const Stream& stream, Direction direction, const FieldOf<const double, Dims>& input,
                const FieldView<double, Dims>& output, const CellGeometry<Dims>& geometry,
                const HydrostaticView& background, const StepParams<Dims>* params, const SourceTerms<Dims>& sources,
                const TracerBackground& tracers) {
  const PassInputs<Dims> with{geometry, background, params, sources, tracers};
  with_tracer_count(input.shape.num_vars - ModelVariables<Dims>::count, [&](auto t) {
    with_direction_of<Dims>(direction, [&](auto d) {
      launch_along<decltype(d)::value, Dims, decltype(t)::value>(stream, input, output, with);
    });
  });
}

template void apply_pass<2>(const Stream&, Direction, const FieldOf<const double, 2>&, const FieldView<double, 2>&,
                            const CellGeometry<2>&, const HydrostaticView&, const StepParams<2>*, const SourceTerms<2>&,
                            const TracerBackground&);
template void apply_pass<3>(const Stream&, Direction, const FieldOf<const double, 3>&, const FieldView<double, 3>&,
                            const CellGeometry<3>&, const HydrostaticView&, const StepParams<3>*, const SourceTerms<3>&,
                            const TracerBackground&);

}  // namespace simapp
