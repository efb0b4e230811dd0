#pragma once
/// Fills every cell (halos included) with the case's initial perturbation state.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// Each cell is the Gauss–Legendre average (3×3 points in 2-D, 3×3×3 in 3-D) of the point state
/// of case `name` made of `bump` (case_perturbation: the case's own bump, model_bump of case_bump,
/// or the one configured)
///   ρ′ = 0, ρu = ρ̄(z) u, ρv = 0 (no case has a wind along y), ρw = ρ̄(z) w, (ρθ)′ = ρ̄(z) θ′.
template <int Dims>
void set_initial_state(const Stream& stream, FieldView<double, Dims> state, CaseName name, const Bump<Dims>& bump,
                       const CellGeometry<Dims>& geometry);

}  // namespace simapp
