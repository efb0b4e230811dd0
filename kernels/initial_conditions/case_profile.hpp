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
SIMAPP_HOST_DEVICE inline Bump<2> collision_cold_bubble(const Bump<2>& warm) {
  return Bump<2>{-warm.amplitude, warm.x0, warm.z0 + 6000.0, warm.xr, warm.zr};
}

/// collision's cold bubble in the 3-D model: 6000 m above `warm`, of its radii and the opposite
/// amplitude.
SIMAPP_HOST_DEVICE inline Bump<3> collision_cold_bubble(const Bump<3>& warm) {
  return Bump<3>{-warm.amplitude, warm.x0, warm.y0, warm.z0 + 6000.0, warm.xr, warm.yr, warm.zr};
}

/// The 3-D model's bump of a case whose 2-D bump is `xz`, in a domain `ylen` deep: the ellipsoid
/// centred at y = ylen/2 with y_r = x_r (thermal and collision: spheres).
SIMAPP_HOST_DEVICE inline Bump<3> case_bump_3d(const Bump<2>& xz, double ylen) {
  return Bump<3>{xz.amplitude, xz.x0, ylen / 2.0, xz.z0, xz.xr, xz.xr, xz.zr};
}

/// The gravity_waves forcing, tend(ρw) += bump(x, z) · ρ̄_c(k) in every stage, with `bump` the
/// case's bump (as configured); none (amplitude 0) in every other case.
SIMAPP_HOST_DEVICE inline Bump<2> gravity_wave_source(CaseName name, const Bump<2>& bump) {
  return name == CaseName::gravity_waves ? bump : Bump<2>{};
}

/// The 3-D model's gravity_waves forcing: tend(ρw) += bump(x, y, z) · ρ̄_c(k).
SIMAPP_HOST_DEVICE inline Bump<3> gravity_wave_source(CaseName name, const Bump<3>& bump) {
  return name == CaseName::gravity_waves ? bump : Bump<3>{};
}

/// The background of a case: stratified (N = 0.02 s⁻¹) for gravity_waves, else neutral
/// (θ̄ = 300 K, p̄ = 10⁵ Pa at the ground).
SIMAPP_HOST_DEVICE inline HydrostaticBackground case_background(CaseName name) {
  return HydrostaticBackground{name == CaseName::gravity_waves ? 0.02 : 0.0};
}

/// The perturbation of case `name` at a point, from `bump_at()`, its bump's value there, and
/// (collision) `cold_bubble_at()`, its cold bubble's: of either model.
template <class BumpAt, class ColdBubbleAt>
SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation_of(CaseName name, const BumpAt& bump_at,
                                                                 const ColdBubbleAt& cold_bubble_at) {
  switch (name) {
    case CaseName::thermal:
    case CaseName::density_current: return {bump_at(), 0.0, 0.0};
    case CaseName::collision: return {bump_at() + cold_bubble_at(), 0.0, 0.0};
    case CaseName::gravity_waves: return {0.0, 15.0, 0.0};  // its bump is the source
    case CaseName::straka: return {0.0, 0.0, 0.0, bump_at()};
    case CaseName::injection:
    case CaseName::rest: return {};
  }
  return {};
}

/// The perturbation of case `name` at (x, z), made of `bump`: the case's bump (case_bump) or
/// the one configured in its place.
SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation(CaseName name, double x, double z, const Bump<2>& bump) {
  return case_perturbation_of(
      name, [&] { return bump(x, z); }, [&] { return collision_cold_bubble(bump)(x, z); });
}

}  // namespace simapp
