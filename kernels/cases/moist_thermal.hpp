#pragma once
/// Case moist_thermal: the thermal with water vapour added at its temperature (docs/model.md,
/// "Moisture"): a supersaturated bubble whose first microphysics call makes cloud, and rain
/// soon after. It needs physics.microphysics: kessler (the state's water tracers).
#include <string_view>

#include "kernels/cases/thermal.hpp"

namespace simapp {

struct MoistThermal : Thermal {
  static constexpr std::string_view name = "moist_thermal";
  static constexpr bool carries_water = true;
  static constexpr double vapour_peak = 0.015;     ///< q_v at the centre, kg kg⁻¹
  static constexpr double vapour_radius = 3000.0;  ///< m, in every direction

  /// θ′ = the bump; q_v = 0.015 cos²(πL/2) within 3000 m of the bump's centre, 0 outside.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    Bump<Dims> vapour = bump;
    vapour.amplitude = vapour_peak;
    vapour.xr = vapour_radius;
    vapour.zr = vapour_radius;
    if constexpr (Dims == 3) vapour.yr = vapour_radius;
    PointPerturbation perturbation = Thermal::perturbation(bump, at...);
    perturbation.vapour = vapour(at...);
    return perturbation;
  }
};

}  // namespace simapp
