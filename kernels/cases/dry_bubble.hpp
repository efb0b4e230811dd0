#pragma once
/// Case dry_bubble: Bryan & Fritsch (2002)'s dry benchmark, moist_bubble's dry twin (docs/model.md,
/// "Moisture"): θ′ = 2 K at the background's pressure in a neutral atmosphere of θ₀ = 300 K.
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct DryBubble : CaseDefaults {
  static constexpr std::string_view name = "dry_bubble";
  static constexpr bool has_bump = true;

  /// θ′ = 2 K at (xlen/2, 2000 m), radii 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{2.0, xlen / 2, 2000.0, 2000.0, 2000.0}; }

  /// T′ = θ′ Π̄(z) at p̄ (so θ′ = the bump, ρθ unchanged), z the last coordinate.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    const double coordinates[] = {at...};
    const double z = coordinates[sizeof...(at) - 1];
    const double exner = pow(background().at(z).pressure / physics::p0, physics::rd / physics::cp);
    PointPerturbation perturbation;
    perturbation.temperature = bump(at...) * exner;
    return perturbation;
  }
};

}  // namespace simapp
