#pragma once
/// Case gravity_waves: a wind of 15 m/s over a forced bump in a stratified atmosphere
/// (docs/model.md, "Initial state").
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct GravityWaves : CaseDefaults {
  static constexpr std::string_view name = "gravity_waves";
  static constexpr bool has_bump = true;

  /// The wave source, 0.01 m s⁻² at (xlen/8, 1000 m), radii 500 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{0.01, xlen / 8.0, 1000.0, 500.0, 500.0}; }

  /// Stratified, N = 0.02 s⁻¹.
  SIMAPP_HOST_DEVICE static HydrostaticBackground background() { return HydrostaticBackground{0.02}; }

  /// u = 15 m s⁻¹ everywhere (its bump is the source).
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& /*bump*/, Coordinates... /*at*/) {
    return {0.0, 15.0, 0.0};
  }

  /// The bump is the source.
  template <int Dims>
  SIMAPP_HOST_DEVICE static Bump<Dims> momentum_source(const Bump<Dims>& bump) {
    return bump;
  }
};

}  // namespace simapp
