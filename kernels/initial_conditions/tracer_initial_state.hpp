#pragma once
/// The tracers' initial state (physics.tracer_init; docs/model.md, "Tracers"), after the dry
/// variables' (initial_state.hpp): every tracer of a run starts alike.
#include <array>
#include <string_view>
#include <utility>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// physics.tracer_init: what each tracer starts as.
enum class TracerInit {
  bump,     ///< mixing ratio 1 inside the case's bump, 0 outside; background ρ̄_x = 0
  uniform,  ///< mixing ratio 1 everywhere: background ρ̄_x = ρ̄, ρ_x′ = ρ′
};

inline constexpr std::array<std::pair<TracerInit, std::string_view>, 2> tracer_init_names{{
    {TracerInit::bump, "bump"},
    {TracerInit::uniform, "uniform"},
}};

/// The tracers of a state of `shape` in the model of `Dims` dimensions: the variables after its dry ones.
template <int Dims>
constexpr VarRange tracers_of(const FieldShape<Dims>& shape) {
  return {ModelVariables<Dims>::count, shape.num_vars};
}

/// Sets the tracers t ∈ tracers of every cell (halos included) of a state whose dry variables
/// hold the initial state of case `name`:
///   bump: ρ_x′ = the Gauss–Legendre average (as the dry variables') of ρ = ρ̄(z) + ρ′ at the
///         points where the bump, made of amplitude 1, is positive (inside it), 0 elsewhere;
///   uniform: ρ_x′ = ρ′.
/// Nothing (no launch) for an empty range.
template <class Real, int Dims>
void set_tracer_initial_state(const Stream& stream, FieldView<Real, Dims> state, VarRange tracers, TracerInit init,
                              CaseName name, const Bump<Dims>& bump, const CellGeometry<Dims>& geometry);

}  // namespace simapp
