#pragma once
/// Case straka: the density current of Straka et al. (1993), a cold bubble falling and spreading
/// along the ground, measured by its front (docs/model.md, "Initial state"; run it with
/// inputs/straka.yaml).
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct Straka : CaseDefaults {
  static constexpr std::string_view name = "straka";
  static constexpr bool has_bump = true;

  /// The cold bubble ΔT = −15 K (1 + cos πL) / 2 = −15 K cos²(πL/2), at (xlen/2, 3000 m), radii
  /// 4000 m × 2000 m.
  SIMAPP_HOST_DEVICE static Bump<2> bump(double xlen) { return Bump<2>{-15.0, xlen / 2, 3000.0, 4000.0, 2000.0}; }

  /// T′ = the bump.
  template <int Dims, class... Coordinates>
  SIMAPP_HOST_DEVICE static PointPerturbation perturbation(const Bump<Dims>& bump, Coordinates... at) {
    return {0.0, 0.0, 0.0, bump(at...)};
  }

  static constexpr CaseMeasures measures = CaseMeasures::density_current;
};

}  // namespace simapp
