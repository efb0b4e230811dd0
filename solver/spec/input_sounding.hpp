#pragma once
/// A sounding as WRF's ideal cases read it from a file `input_sounding` (background.sounding):
/// the surface's pressure, θ and q_v, then a line a level of height, θ, q_v, u and v; here in SI
/// units (the file has hPa and g/kg).
#include <vector>

namespace simapp {

struct SoundingLevel {
  double height = 0.0;  ///< m above the ground
  double theta = 0.0;   ///< K
  double vapour = 0.0;  ///< q_v, kg kg⁻¹
  double u = 0.0;       ///< m s⁻¹
  double v = 0.0;       ///< m s⁻¹
};

struct InputSounding {
  double surface_pressure = 0.0;      ///< Pa
  double surface_theta = 0.0;         ///< K
  double surface_vapour = 0.0;        ///< kg kg⁻¹
  std::vector<SoundingLevel> levels;  ///< by increasing height
};

}  // namespace simapp
