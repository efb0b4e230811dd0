#pragma once
/// Fills every cell (halos included) with the case's initial perturbation state.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/initial_conditions/case_name.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// Each cell is the 3×3 Gauss–Legendre average of the point state of case `name` made of
/// `bump` (case_perturbation: the case's own bump, case_bump, or the one configured)
///   ρ′ = 0, ρu = ρ̄(z) u, ρw = ρ̄(z) w, (ρθ)′ = ρ̄(z) θ′.
void set_initial_state(const Stream& stream, FieldView<double, 2> state, CaseName name, const Bump<2>& bump,
                       const CellGeometry<2>& geometry);

/// The 3-D model's initial state: each cell the 3×3×3 Gauss–Legendre average of the point state
/// of case `name` made of the ellipsoid `bump` (ρv = 0: no case has a wind along y).
void set_initial_state_3d(const Stream& stream, FieldView<double, 3> state, CaseName name, const Bump<3>& bump,
                          const CellGeometry<3>& geometry);

}  // namespace simapp
