#pragma once
/// A case's perturbation of its background at one point, the initial state's unit.

namespace simapp {

/// Perturbation at a point: potential temperature (at the background density), wind, and
/// temperature (at the background pressure: ρθ, and so p, unchanged; ρ and θ change).
struct PointPerturbation {
  double theta = 0.0;        ///< θ′, K
  double u = 0.0;            ///< m s⁻¹
  double w = 0.0;            ///< m s⁻¹
  double temperature = 0.0;  ///< T′, K
  double vapour = 0.0;       ///< q_v, kg kg⁻¹: water vapour added at the dry state's temperature (ρ_d = ρ̄)
  /// Δ, K: a saturated parcel warmed at the background's pressure, its total water kept: its
  /// density potential temperature θ_ρ becomes θ̄_ρ (1 + Δ/θ₀) (Bryan & Fritsch 2002; only on a
  /// background integrated from a sounding).
  double saturated_warming = 0.0;
};

}  // namespace simapp
