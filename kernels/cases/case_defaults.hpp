#pragma once
/// What a case declares (docs/model.md, "Initial state"), with the values a case has unless it
/// declares its own: each case (kernels/cases/<case>.hpp) derives from CaseDefaults and hides the
/// members it changes; kernels/cases/case_list.hpp lists the cases.
#include <string_view>

#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/cases/point_perturbation.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/physics/bump.hpp"

namespace simapp {

/// The measures a case is reported by at the end of a run (computed in io/case/, printed by
/// app/case_report.cpp).
enum class CaseMeasures {
  none,
  density_current,  ///< the front position and the extremes of θ′ and the wind
};

/// The sounding a case's background is integrated from at start-up (docs/model.md, "Moist
/// backgrounds"): none (its analytic background()), Bryan & Fritsch's moist-neutral column, or
/// DCMIP2016's supercell sounding.
enum class CaseSounding { none, moist_neutral, supercell };

/// An atmosphere at rest: a neutral background (θ̄ = 300 K, p̄ = 10⁵ Pa at the ground), x periodic
/// and z free-slip walls, no bump, no perturbation, no forcing, no measures.
struct CaseDefaults {
  // static constexpr std::string_view name: the case's configuration name (every case has its own)

  /// Whether the case is made of a bump, the one perturbation.* configures.
  static constexpr bool has_bump = false;

  /// Whether the case starts with water (its perturbation's vapour): it needs physics.microphysics.
  static constexpr bool carries_water = false;

  /// The case's bump in the x–z plane of a domain `xlen` wide (model_bump makes the 3-D one).
  SIMAPP_HOST_DEVICE static Bump<2> bump(double /*xlen*/) { return {}; }

  /// The background the case stands on.
  SIMAPP_HOST_DEVICE static HydrostaticBackground background() { return HydrostaticBackground{0.0}; }

  /// The sounding the case's background is integrated from instead (none: background()).
  static constexpr CaseSounding sounding = CaseSounding::none;

  /// Whether the case is a 3-D one only.
  static constexpr bool three_d_only = false;

  /// The perturbation at the point `at` ((x, z) in 2-D, (x, y, z) in 3-D), made of `bump`: the
  /// case's bump or the one configured in its place.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& /*bump*/, Coordinates... /*at*/) {
    return {};
  }

  /// The domain's four sides.
  static constexpr BoundaryConditions<2> boundaries() {
    constexpr BoundaryCondition periodic{BoundaryKind::periodic};
    constexpr BoundaryCondition wall{BoundaryKind::wall};
    return {periodic, periodic, wall, wall, {}};
  }

  /// The forcing of every stage, tend(ρw) += source(x, (y,) z) · ρ̄_c(k), made of `bump` (the
  /// case's as configured); none (amplitude 0).
  template <int Dims>
  SIMAPP_HOST_DEVICE static Bump<Dims> momentum_source(const Bump<Dims>& /*bump*/) {
    return {};
  }

  /// What the case is measured by at the end of a run.
  static constexpr CaseMeasures measures = CaseMeasures::none;
};

}  // namespace simapp
