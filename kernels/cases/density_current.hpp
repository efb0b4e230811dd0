#pragma once
/// Case density_current: a cold bubble falling, hitting the ground and spreading (docs/model.md,
/// "Initial state"); case straka is the benchmark of the same flow.
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct DensityCurrent : CaseDefaults {
  static constexpr std::string_view name = "density_current";
  static constexpr bool has_bump = true;

  /// θ′ −20 K at (xlen/2, 5000 m), radii 4000 m × 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{-20.0, xlen / 2, 5000.0, 4000.0, 2000.0}; }

  /// θ′ = the bump.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    return {bump(at...), 0.0, 0.0};
  }
};

}  // namespace simapp
