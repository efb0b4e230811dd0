#pragma once
/// The soundings simapp integrates hydrostatically (docs/model.md, "Moist backgrounds").
#include <functional>

#include "solver/column/column_air.hpp"
#include "solver/spec/input_sounding.hpp"

namespace simapp {

/// A file's sounding: θ, q_v, u and v interpolated linearly in height between its levels, the
/// surface's θ and q_v (and the lowest level's wind) at z = 0, the top level's above it and the
/// surface's below the ground; no cloud.
Sounding sounding_of(const InputSounding& input);

/// DCMIP2016's supercell (Klemp et al. 2015): θ = θ₀ + (θ_tr − θ₀)(z/z_tr)^(5/4) below
/// z_tr = 12 km, θ_tr exp(g (z − z_tr)/(c_p T_tr)) above (θ₀ = 300 K, θ_tr = 343 K, T_tr = 213 K);
/// relative humidity H = 1 − ¾ (z/z_tr)^(5/4) below z_tr, ¼ above; q_v = H · min(q_vs(p, T),
/// 0.014), the saturation mixing ratio capped at 14 g/kg as the DCMIP2016 code caps it; the wind
/// supercell_wind.
Sounding supercell_sounding();

/// DCMIP2016's supercell shear, m s⁻¹: u = U_s z/z_s − U_c below z_s − 1 km, the cubic
/// (−4/5 + 3z/z_s − 5z²/(4z_s²)) U_s − U_c within 1 km of z_s, U_s − U_c above (U_s = 30 m s⁻¹,
/// U_c = 15 m s⁻¹, z_s = 5 km).
double supercell_wind(double z);

/// A saturated column of total water `total_water` (kg kg⁻¹) whose equivalent potential
/// temperature is `theta_e` everywhere in the model's own thermodynamics (Bryan & Fritsch 2002's
/// moist-neutral atmosphere): a saturated parcel lifted reversibly, whose condensation warms it
/// as the microphysics' saturation adjustment does (c_p Π dθ_d = −l_v dq_v), stays neutral:
///   d ln θ_d = −l_v dq_vs / (c_p T),  q_v = q_vs(p, T),  q_c = q_t − q_v,
/// integrated in p from θ_d at `surface_pressure`, where θ_d exp(l_v q_vs / (c_p T)) = θ_e.
Sounding moist_neutral_sounding(double theta_e, double total_water, double surface_pressure);

/// The temperature T ∈ [150 K, 400 K] where `rises(T)`, increasing in T, crosses `target`:
/// bisection to round-off (1e-13 T).
double temperature_where(const std::function<double(double)>& rises, double target);

/// Saturation mixing ratio q_vs = 380/p · exp(17.27 (T − 273)/(T − 36)) (KW 2.11), kg kg⁻¹.
double saturation_vapour(double pressure, double temperature);

}  // namespace simapp
