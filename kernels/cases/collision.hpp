#pragma once
/// Case collision: a warm bubble rising into a cold one falling (docs/model.md, "Initial state").
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

/// collision's cold bubble: 6000 m above its warm bubble `warm`, of the same radii and the
/// opposite amplitude (θ′ −20 K at (xlen/2, 8000 m) for the case's own).
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> collision_cold_bubble(const Bump<Dims>& warm) {
  Bump<Dims> cold = warm;
  cold.amplitude = -warm.amplitude;
  cold.z0 = warm.z0 + 6000.0;
  return cold;
}

struct Collision : CaseDefaults {
  static constexpr std::string_view name = "collision";
  static constexpr bool has_bump = true;

  /// The warm bubble, θ′ +20 K at (xlen/2, 2000 m), radii 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{20.0, xlen / 2, 2000.0, 2000.0, 2000.0}; }

  /// θ′ = the warm bubble + its cold bubble (collision_cold_bubble).
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    return {bump(at...) + collision_cold_bubble(bump)(at...), 0.0, 0.0};
  }
};

}  // namespace simapp
