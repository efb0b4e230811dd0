#pragma once
/// The air of a column atmosphere, a sounding, as the hydrostatic integration reads it
/// (docs/model.md, "Moist backgrounds"): at each height and pressure its dry potential
/// temperature and its water, from which the equation of state gives every other quantity, and
/// its wind.
#include <functional>

namespace simapp {

/// The air at one point of a sounding.
struct ColumnAir {
  double theta = 0.0;   ///< θ_d = T / Π, Π = (p/p₀)^(R_d/c_p), K
  double vapour = 0.0;  ///< q_v, kg per kg of dry air
  double cloud = 0.0;   ///< q_c, kg per kg of dry air
  double u = 0.0;       ///< wind along x, m s⁻¹
  double v = 0.0;       ///< wind along y, m s⁻¹
};

/// A sounding: the air at height z (m) where the pressure is p (Pa). The pressure argument lets
/// a sounding hold its relative humidity (DCMIP2016's supercell) or its saturation (a
/// moist-neutral column) as the integration finds the pressure.
using Sounding = std::function<ColumnAir(double z, double pressure)>;

/// Every quantity of the model at one point of a column, from the air and the pressure:
///   T = θ_d Π,  ρ_d = p / (T (R_d + q_v R_v)),  ρ = ρ_d (1 + q_v + q_c),
///   ρθ = (p / C₀)^(1/γ) (the equation of state p = C₀(ρθ)^γ), ρ_v = ρ_d q_v, ρ_c = ρ_d q_c.
struct ColumnPoint {
  double pressure = 0.0;        ///< Pa
  double temperature = 0.0;     ///< K
  double dry_density = 0.0;     ///< ρ_d, kg m⁻³
  double density = 0.0;         ///< ρ, kg m⁻³, the dry air's and the water's
  double rho_theta = 0.0;       ///< ρθ, kg K m⁻³
  double vapour_density = 0.0;  ///< ρ_v, kg m⁻³
  double cloud_density = 0.0;   ///< ρ_c, kg m⁻³
};

ColumnPoint column_point(const ColumnAir& air, double pressure);

}  // namespace simapp
