#pragma once
/// Point values that define each case (docs/model.md, "Initial state" table): the background
/// it stands on, the bump it is made of, and the θ′, u, w perturbations at a point.
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

/// Whether case `name` is made of a bump (the one perturbation.* configures): every case but
/// injection and rest.
constexpr bool has_bump(CaseName name) { return name != CaseName::injection && name != CaseName::rest; }

/// The case's own bump in a domain `xlen` wide (docs/model.md, "Initial state"):
/// - thermal: θ′ +3 K at (xlen/2, 2000 m), radii 2000 m;
/// - collision: its warm bubble, θ′ +20 K at (xlen/2, 2000 m), radii 2000 m (collision_cold_bubble);
/// - gravity_waves: the wave source, 0.01 m s⁻² at (xlen/8, 1000 m), radii 500 m;
/// - density_current: θ′ −20 K at (xlen/2, 5000 m), radii 4000 m × 2000 m;
/// - straka (Straka et al. 1993): the cold bubble ΔT = −15 K (1 + cos πL) / 2 = −15 K cos²(πL/2),
///   at (xlen/2, 3000 m), radii 4000 m × 2000 m;
/// - injection, rest: none (amplitude 0).
SIMAPP_HOST_DEVICE inline Bump<2> case_bump(CaseName name, double xlen) {
  switch (name) {
    case CaseName::thermal: return Bump<2>{3.0, xlen / 2, 2000.0, 2000.0, 2000.0};
    case CaseName::collision: return Bump<2>{20.0, xlen / 2, 2000.0, 2000.0, 2000.0};
    case CaseName::gravity_waves: return Bump<2>{0.01, xlen / 8.0, 1000.0, 500.0, 500.0};
    case CaseName::density_current: return Bump<2>{-20.0, xlen / 2, 5000.0, 4000.0, 2000.0};
    case CaseName::straka: return Bump<2>{-15.0, xlen / 2, 3000.0, 4000.0, 2000.0};
    case CaseName::injection:
    case CaseName::rest: return Bump<2>{};
  }
  return Bump<2>{};
}

/// collision's cold bubble: 6000 m above its warm bubble `warm`, of the same radii and the
/// opposite amplitude (θ′ −20 K at (xlen/2, 8000 m) for the case's own).
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> collision_cold_bubble(const Bump<Dims>& warm) {
  Bump<Dims> cold = warm;
  cold.amplitude = -warm.amplitude;
  cold.z0 = warm.z0 + 6000.0;
  return cold;
}

/// The bump of the `Dims`-dimensional model made of the x–z bump `xz` (a case's, case_bump), in a
/// domain `ylen` deep: `xz` itself in 2-D; in 3-D the ellipsoid centred at y = ylen/2 with
/// y_r = x_r (thermal and collision: spheres).
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> model_bump(const Bump<2>& xz, [[maybe_unused]] double ylen) {
  if constexpr (Dims == 3)
    return Bump<3>{xz.amplitude, xz.x0, ylen / 2.0, xz.z0, xz.xr, xz.xr, xz.zr};
  else
    return xz;
}

/// The gravity_waves forcing, tend(ρw) += bump(x, (y,) z) · ρ̄_c(k) in every stage, with `bump`
/// the case's bump (as configured); none (amplitude 0) in every other case.
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> gravity_wave_source(CaseName name, const Bump<Dims>& bump) {
  return name == CaseName::gravity_waves ? bump : Bump<Dims>{};
}

/// The background of a case: stratified (N = 0.02 s⁻¹) for gravity_waves, else neutral
/// (θ̄ = 300 K, p̄ = 10⁵ Pa at the ground).
SIMAPP_HOST_DEVICE inline HydrostaticBackground case_background(CaseName name) {
  return HydrostaticBackground{name == CaseName::gravity_waves ? 0.02 : 0.0};
}

/// The perturbation of case `name` at the point `at` ((x, z) in 2-D, (x, y, z) in 3-D), made of
/// `bump`: the case's bump (case_bump) or the one configured in its place.
template <int Dims, class... Coordinates>
SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation(CaseName name, const Bump<Dims>& bump,
                                                              Coordinates... at) {
  switch (name) {
    case CaseName::thermal:
    case CaseName::density_current: return {bump(at...), 0.0, 0.0};
    case CaseName::collision: return {bump(at...) + collision_cold_bubble(bump)(at...), 0.0, 0.0};
    case CaseName::gravity_waves: return {0.0, 15.0, 0.0};  // its bump is the source
    case CaseName::straka: return {0.0, 0.0, 0.0, bump(at...)};
    case CaseName::injection:
    case CaseName::rest: return {};
  }
  return {};
}

}  // namespace simapp
