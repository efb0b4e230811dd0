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
///   ρ′ = 0, ρu = ρ̄(z) u, ρv = 0 (no case has a wind along y), ρw = ρ̄(z) w, (ρθ)′ = ρ̄(z) θ′;
/// where the point has vapour q_v (moist_thermal), ρ_v = q_v ρ̄ is added at the dry point's
/// temperature: ρ′ = ρ_v and (ρθ)′ = ρθ_dry ((ρ̄R_d + ρ_v R_v)/(ρ̄R_d))^(1/γ) − ρ̄θ̄ with ρθ_dry = ρ̄(θ̄ + θ′).
/// A state holding water (first_water ≥ 0: the variable of ρ_v′) gets ρ_v there and 0 cloud and rain.
template <class Real, int Dims>
void set_initial_state(const Stream& stream, FieldView<Real, Dims> state, CaseName name, const Bump<Dims>& bump,
                       const CellGeometry<Dims>& geometry, int first_water = -1);

}  // namespace simapp
