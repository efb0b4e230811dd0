#pragma once
/// Case injection: a jet entering through the left side (docs/model.md, "Initial state" and
/// "Boundaries").
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

/// The inflow of `injection`: u = 50 m/s, θ = 298 K in the rows with |z − 3 zlen/4| ≤ zlen/16
/// (0.0625 · zlen is zlen/16 exactly).
inline constexpr InflowProfile injection_inflow{50.0, 298.0, 0.75, 0.0625};

struct Injection : CaseDefaults {
  static constexpr std::string_view name = "injection";

  /// An inflow through x low (injection_inflow), x high periodic, z walls.
  static constexpr BoundaryConditions<2> boundaries() {
    constexpr BoundaryCondition periodic{BoundaryKind::periodic};
    constexpr BoundaryCondition wall{BoundaryKind::wall};
    return {{BoundaryKind::inflow}, periodic, wall, wall, injection_inflow};
  }
};

}  // namespace simapp
