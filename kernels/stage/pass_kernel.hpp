#pragma once
/// One split pass in one kernel (execution.granularity: pass): its three RK3 stages,
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**),
/// tile by tile in shared memory (pass_tile.hpp, the persistent kernel's pass tiles: the point
/// functions of the stage kernel, so the same bits), a block a tile. A pass reads qⁿ once and
/// writes qⁿ⁺¹ once (64 B a cell in 2-D, 80 B in 3-D, the tiles' margins mostly from the cache)
/// where three stage kernels move four times as much. Along x and y the lines must be periodic on
/// the rank, along z end at walls (pass_tile_makes_along): the rank holds the whole line. The
/// state's tracers (docs/model.md, "Tracers") travel in the same tiles, up to
/// pass_kernel_max_tracers of them, with the bits of the tracer transport kernel.
#include <string>
#include <type_traits>

#include "foundation/error.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/time/step_params.hpp"
#include "kernels/update/source_terms.hpp"

namespace simapp {

/// The most tracers a pass kernel carries after the dry variables: a tile's arrays are sized at
/// compile time, a kernel for each count (physics.tracers, the water's three of
/// physics.microphysics, or the water and one more). A state with more runs its passes as stage
/// kernels, each followed by the tracer transport kernel.
inline constexpr int pass_kernel_max_tracers = 4;

/// Whether a pass kernel advances a state with `tracers` tracers after the dry variables.
constexpr bool pass_kernel_carries(int tracers) { return tracers >= 0 && tracers <= pass_kernel_max_tracers; }

/// f(std::integral_constant<int, T>{}) for the state's tracer count `tracers` = T, one of
/// First … pass_kernel_max_tracers (pass_kernel_carries): the pass tiles of T tracers.
template <int First = 0, class F>
decltype(auto) with_tracer_count(int tracers, const F& f) {
  if constexpr (First < pass_kernel_max_tracers) {
    if (tracers != First) return with_tracer_count<First + 1>(tracers, f);
  } else if (tracers != First) {
    throw Error(ExitCode::internal, "pass kernel",
                "a state of " + std::to_string(tracers) + " tracers, where a pass kernel carries up to " +
                    std::to_string(pass_kernel_max_tracers));
  }
  return f(std::integral_constant<int, First>{});
}

/// The pass along `direction` from qⁿ (`input`) into qⁿ⁺¹ (`output`, another array of the same
/// shape), stage s reading the step values `params` (its dt / divisor and coefficients of stage s);
/// the variables beyond the model's dry ones are tracers (as many as pass_kernel_carries allows)
/// whose background profiles are `tracers`. Real: the state's type (double or float).
template <class Real, int Dims>
void apply_pass(const Stream& stream, Direction direction, const FieldOf<const Real, Dims>& input,
                const FieldView<Real, Dims>& output, const CellGeometry<Dims>& geometry,
                const HydrostaticView& background, const StepParams<Dims>* params, const SourceTerms<Dims>& sources,
                const TracerBackground& tracers);

}  // namespace simapp
