#pragma once
/// Point values that define each case (docs/model.md, "Initial state" table): the background
/// it stands on and the θ′, u, w perturbations at a point.
#include "kernels/backend/host_device.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/initial_conditions/case_name.hpp"
#include "kernels/physics/bump.hpp"

namespace simapp {

/// Perturbation at a point: potential temperature, wind.
struct PointPerturbation {
  double theta = 0.0;  ///< θ′, K
  double u = 0.0;      ///< m s⁻¹
  double w = 0.0;      ///< m s⁻¹
};

/// The inflow of `injection`: rows with |z − 3 zlen/4| ≤ zlen/16 at the left boundary.
struct InjectionInflow {
  double u = 50.0;       ///< m s⁻¹
  double theta = 298.0;  ///< K
  SIMAPP_HOST_DEVICE static bool applies(double z, double zlen) {
    const double offset = z - 0.75 * zlen;
    return (offset < 0 ? -offset : offset) <= zlen / 16.0;
  }
};

/// The gravity_waves forcing: tend(ρw) += bump(x, z) · ρ̄_c(k) in every stage.
SIMAPP_HOST_DEVICE inline Bump gravity_wave_source(CaseName name, double xlen) {
  if (name != CaseName::gravity_waves) return Bump{};
  return Bump{0.01, xlen / 8.0, 1000.0, 500.0, 500.0};
}

/// The background of a case: stratified (N = 0.02 s⁻¹) for gravity_waves, else neutral.
SIMAPP_HOST_DEVICE inline HydrostaticBackground case_background(CaseName name) {
  return HydrostaticBackground{name == CaseName::gravity_waves ? 0.02 : 0.0};
}

SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation(CaseName name, double x, double z,
                                                              double xlen) {
  switch (name) {
    case CaseName::thermal: return {Bump{3.0, xlen / 2, 2000.0, 2000.0, 2000.0}(x, z), 0.0, 0.0};
    case CaseName::collision:
      return {Bump{20.0, xlen / 2, 2000.0, 2000.0, 2000.0}(x, z) +
                  Bump{-20.0, xlen / 2, 8000.0, 2000.0, 2000.0}(x, z),
              0.0, 0.0};
    case CaseName::gravity_waves: return {0.0, 15.0, 0.0};
    case CaseName::density_current: return {Bump{-20.0, xlen / 2, 5000.0, 4000.0, 2000.0}(x, z), 0.0, 0.0};
    case CaseName::injection:
    case CaseName::rest: return {};
  }
  return {};
}

}  // namespace simapp
