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
template <int Dims, class Real, int Tracers>
using ShortRows = PassTile<Direction::x, Dims, Real, 128, 4, 23, Tracers>;
template <int Dims, class Real, int Tracers>
using LongRows = PassTile<Direction::x, Dims, Real, 128, 2, 55, Tracers>;
template <Direction D, int Dims, class Real, int Tracers>
using ShortColumns = PassTile<D, Dims, Real, 128, 8, 7, Tracers>;
/// The 2-D columns of 8 × 32 need 44288 B of shared memory for the 4 dry variables (3 stages ×
/// 8 lines × 44 positions and 8 × 41 fluxes, of each variable, 8 B a value) and 55360 B with one
/// tracer, beyond the 48 KB a block may have unasked: with tracers the 2-D model takes the 3-D
/// model's 4 × 23 on 128 threads (30688 B with 3 tracers, 35072 B with 4). float32 tiles take
/// the same shapes (half the bytes).
template <Direction D, int Dims, class Real, int Tracers>
using LongColumns = std::conditional_t<
    Dims == 3, PassTile<D, 3, Real, 128, 4, 23, Tracers>,
    std::conditional_t<Tracers == 0, PassTile<D, 2, Real, 256, 8, 32>, PassTile<D, 2, Real, 128, 4, 23, Tracers>>>;
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

template <class Pass, class Real, int Dims>
void launch(const Stream& stream, const FieldView<const Real, Dims>& input, const FieldView<Real, Dims>& output,
            const PassInputs<Dims>& with) {
  static_assert(sizeof(typename Pass::Tile) <= 48 * 1024, "a pass tile within the shared memory a block has unasked");
  Pass pass{};
  set_pass(pass, input, output, with.geometry, with.background, with.params, with.sources);
  if constexpr (Pass::tracers > 0) pass.tracer_background = with.tracers;
  launch_pass_tiles(direction_label<Pass::direction>("pass_x", "pass_y", "pass_z"), stream, pass);
}

template <Direction D, int Tracers, class Real, int Dims>
void launch_along(const Stream& stream, const FieldView<const Real, Dims>& input, const FieldView<Real, Dims>& output,
                  const PassInputs<Dims>& with) {
  const FieldShape<Dims>& shape = input.shape;
  if constexpr (D == Direction::x) {
    using Long = LongRows<Dims, Real, Tracers>;
    using Short = ShortRows<Dims, Real, Tracers>;
    if (Long::cells_loaded_along(shape.nx) < Short::cells_loaded_along(shape.nx))
      launch<Long>(stream, input, output, with);
    else
      launch<Short>(stream, input, output, with);
  } else {
    const int length = D == Direction::y ? shape.ny : shape.nz;
    if (length < long_columns_from)
      launch<ShortColumns<D, Dims, Real, Tracers>>(stream, input, output, with);
    else
      launch<LongColumns<D, Dims, Real, Tracers>>(stream, input, output, with);
  }
}

}  // namespace

template <class Real, int Dims>
void apply_pass(const Stream& stream, Direction direction, const FieldOf<const Real, Dims>& input,
                const FieldView<Real, Dims>& output, const CellGeometry<Dims>& geometry,
                const HydrostaticView& background, const StepParams<Dims>* params, const SourceTerms<Dims>& sources,
                const TracerBackground& tracers) {
  const PassInputs<Dims> with{geometry, background, params, sources, tracers};
  with_tracer_count(input.shape.num_vars - ModelVariables<Dims>::count, [&](auto t) {
    with_direction_of<Dims>(direction, [&](auto d) {
      launch_along<decltype(d)::value, decltype(t)::value>(stream, FieldView<const Real, Dims>(input), output, with);
    });
  });
}

#define SIMAPP_PASS_KERNEL_OF(Real, Dims)                                                                         \
  template void apply_pass<Real, Dims>(const Stream&, Direction, const FieldOf<const Real, Dims>&,                \
                                       const FieldView<Real, Dims>&, const CellGeometry<Dims>&,                   \
                                       const HydrostaticView&, const StepParams<Dims>*, const SourceTerms<Dims>&, \
                                       const TracerBackground&);
SIMAPP_PASS_KERNEL_OF(double, 2)
SIMAPP_PASS_KERNEL_OF(double, 3)
SIMAPP_PASS_KERNEL_OF(float, 2)
SIMAPP_PASS_KERNEL_OF(float, 3)
#undef SIMAPP_PASS_KERNEL_OF

}  // namespace simapp
