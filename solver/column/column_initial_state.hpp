#pragma once
/// The initial state of a case on a background integrated from a sounding (docs/model.md, "Moist
/// backgrounds"), computed on the host: at each Gauss–Legendre point the background's air and
/// point (column_background.hpp), perturbed as the case's PointPerturbation says:
///   saturated warming Δ: at p̄, T such that θ_ρ = θ_d (1 + q_v R_v/R_d)/(1 + q_t) = θ̄_ρ (1 + Δ/θ₀)
///     with q_v = min(q_vs(p̄, T), q_t), q_c = q_t − q_v (the total water q_t kept);
///   temperature T′: θ_d += T′/Π̄ at p̄ (ρθ unchanged, ρ changes);
///   vapour q_v′: q_v += q_v′ at the point's T and ρ_d (p, and so ρθ, grow);
///   θ′: θ_d += θ′ at the point's ρ_d and water (ρθ ×= (θ_d + θ′)/θ_d);
///   wind: ρu = ρ (u_sounding + u′), ρv = ρ v_sounding, ρw = ρ w′;
/// each cell the Gauss–Legendre average of its points' changes from the background (so a cell the
/// perturbation misses is exactly the background: all its perturbations 0).
#include <vector>

#include "kernels/backend/field_view.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "solver/column/column_background.hpp"

namespace simapp {

/// The point `point` of air `air` perturbed by `perturbation` (the wind aside).
ColumnPoint perturbed_point(const ColumnAir& air, const ColumnPoint& point, const PointPerturbation& perturbation);

/// The interior cells of `cells` (nx, ny, nz; the halo ignored) of case `name` made of `bump` on
/// `background`: [var][k][j][i] of `variables` variables, the water ρ_v′, ρ_c′, ρ_r′ from
/// `first_water` (< 0: none), other tracers 0.
template <int Dims>
std::vector<double> column_initial_state(const ColumnBackground& background, CaseName name, const Bump<Dims>& bump,
                                         const CellGeometry<Dims>& geometry, const FieldShape<Dims>& cells,
                                         int variables, int first_water);

}  // namespace simapp
