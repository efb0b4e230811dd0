#pragma once
/// Case thermal: a warm bubble rising in a neutral atmosphere (docs/model.md, "Initial state").
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct Thermal : CaseDefaults {
  static constexpr std::string_view name = "thermal";
  static constexpr bool has_bump = true;

  /// θ′ +3 K at (xlen/2, 2000 m), radii 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{3.0, xlen / 2, 2000.0, 2000.0, 2000.0}; }

  /// θ′ = the bump.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    return {bump(at...), 0.0, 0.0};
  }
};

}  // namespace simapp
