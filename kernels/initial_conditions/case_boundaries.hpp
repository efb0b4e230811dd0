#pragma once
/// The boundary conditions that define each case (docs/model.md, "Boundaries" and the
/// "Initial state" table): x periodic, z free-slip walls, and for `injection` an inflow
/// through the left side.
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/initial_conditions/case_name.hpp"

namespace simapp {

/// The inflow of `injection`: u = 50 m/s, θ = 298 K in the rows with |z − 3 zlen/4| ≤ zlen/16
/// (0.0625 · zlen is zlen/16 exactly).
inline constexpr InflowProfile injection_inflow{50.0, 298.0, 0.75, 0.0625};

/// The domain's four sides in case `name`.
constexpr BoundaryConditions<2> case_boundaries(CaseName name) {
  constexpr BoundaryCondition periodic{BoundaryKind::periodic};
  constexpr BoundaryCondition wall{BoundaryKind::wall};
  if (name == CaseName::injection) return {{BoundaryKind::inflow}, periodic, wall, wall, injection_inflow};
  return {periodic, periodic, wall, wall, {}};
}

}  // namespace simapp
