#pragma once
/// Case moist_bubble: Bryan & Fritsch (2002)'s moist benchmark (docs/model.md, "Moisture"): a
/// +2 K bubble in a saturated, moist-neutral atmosphere (θ_e = 320 K, total water 20 g/kg), the
/// air inside it kept saturated; with physics.rain: off it rises like dry_bubble, its dry twin.
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct MoistBubble : CaseDefaults {
  static constexpr std::string_view name = "moist_bubble";
  static constexpr bool has_bump = true;
  static constexpr bool carries_water = true;
  static constexpr CaseSounding sounding = CaseSounding::moist_neutral;
  static constexpr double equivalent_theta = 320.0;  ///< θ_e, K
  static constexpr double total_water = 0.020;       ///< q_t, kg kg⁻¹

  /// Δ = 2 K at (xlen/2, 2000 m), radii 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{2.0, xlen / 2, 2000.0, 2000.0, 2000.0}; }

  /// θ_ρ = θ̄_ρ (1 + Δ/θ₀) at p̄, saturated, with Δ the bump.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    PointPerturbation perturbation;
    perturbation.saturated_warming = bump(at...);
    return perturbation;
  }
};

}  // namespace simapp
