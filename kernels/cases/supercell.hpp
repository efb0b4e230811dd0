#pragma once
/// Case supercell: DCMIP2016's splitting supercell (Zarzycki et al. 2019; Klemp et al. 2015) on a
/// doubly periodic 168 km × 168 km × 20 km domain (docs/model.md, "Moisture"): its sounding and
/// wind shear, and a +3 K bubble (θ′ at the background's density, the water kept).
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct Supercell : CaseDefaults {
  static constexpr std::string_view name = "supercell";
  static constexpr bool has_bump = true;
  static constexpr bool carries_water = true;
  static constexpr bool three_d_only = true;
  static constexpr CaseSounding sounding = CaseSounding::supercell;

  /// θ′ = 3 K at (xlen/2, ylen/2, 1500 m), horizontal radius 10 km, vertical 1500 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{3.0, xlen / 2, 1500.0, 10000.0, 1500.0}; }

  /// θ′ = the bump (the wind is the sounding's).
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    return {bump(at...), 0.0, 0.0};
  }
};

}  // namespace simapp
