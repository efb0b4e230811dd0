#pragma once
/// Point values that define each case (docs/model.md, "Initial state" table): the background
/// it stands on and the θ′, u, w perturbations at a point.
#include "kernels/backend/host_device.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/initial_conditions/case_name.hpp"
#include "kernels/physics/bump.hpp"

namespace simapp {

/// Perturbation at a point: potential temperature (at the background density), wind, and
/// temperature (at the background pressure: ρθ, and so p, unchanged; ρ and θ change).
struct PointPerturbation {
  double theta = 0.0;        ///< θ′, K
  double u = 0.0;            ///< m s⁻¹
  double w = 0.0;            ///< m s⁻¹
  double temperature = 0.0;  ///< T′, K
};

/// straka (Straka et al. 1993): the cold bubble ΔT = −15 K (1 + cos πr) / 2, r ≤ 1, centred
/// 3 km up in the middle of the domain, radii 4 km × 2 km.
SIMAPP_HOST_DEVICE inline Bump straka_bubble(double xlen) { return Bump{-15.0, xlen / 2, 3000.0, 4000.0, 2000.0}; }

/// The gravity_waves forcing: tend(ρw) += bump(x, z) · ρ̄_c(k) in every stage.
SIMAPP_HOST_DEVICE inline Bump gravity_wave_source(CaseName name, double xlen) {
  if (name != CaseName::gravity_waves) return Bump{};
  return Bump{0.01, xlen / 8.0, 1000.0, 500.0, 500.0};
}

/// The background of a case: stratified (N = 0.02 s⁻¹) for gravity_waves, else neutral
/// (θ̄ = 300 K, p̄ = 10⁵ Pa at the ground).
SIMAPP_HOST_DEVICE inline HydrostaticBackground case_background(CaseName name) {
  return HydrostaticBackground{name == CaseName::gravity_waves ? 0.02 : 0.0};
}

SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation(CaseName name, double x, double z, double xlen) {
  switch (name) {
    case CaseName::thermal: return {Bump{3.0, xlen / 2, 2000.0, 2000.0, 2000.0}(x, z), 0.0, 0.0};
    case CaseName::collision:
      return {Bump{20.0, xlen / 2, 2000.0, 2000.0, 2000.0}(x, z) + Bump{-20.0, xlen / 2, 8000.0, 2000.0, 2000.0}(x, z),
              0.0, 0.0};
    case CaseName::gravity_waves: return {0.0, 15.0, 0.0};
    case CaseName::density_current: return {Bump{-20.0, xlen / 2, 5000.0, 4000.0, 2000.0}(x, z), 0.0, 0.0};
    case CaseName::straka: return {0.0, 0.0, 0.0, straka_bubble(xlen)(x, z)};
    case CaseName::injection:
    case CaseName::rest: return {};
  }
  return {};
}

}  // namespace simapp
