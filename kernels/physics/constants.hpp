#pragma once
/// Physical and numerical constants of the atmosphere and its water (docs/model.md, "Constants"),
/// SI units.

namespace simapp::physics {

inline constexpr double gravity = 9.8;             ///< g, m s⁻²
inline constexpr double cp = 1004.0;               ///< specific heat at constant pressure, J kg⁻¹ K⁻¹
inline constexpr double cv = 717.0;                ///< specific heat at constant volume, J kg⁻¹ K⁻¹
inline constexpr double rd = 287.0;                ///< dry-air gas constant, J kg⁻¹ K⁻¹
inline constexpr double p0 = 1.0e5;                ///< reference pressure, Pa
inline constexpr double gamma = cp / cv;           ///< γ = c_p / c_v
inline constexpr double c0 = 27.5629410929725921;  ///< C₀ = R_d^γ p₀^(−R_d/c_v)
inline constexpr double theta0 = 300.0;            ///< reference potential temperature, K
inline constexpr double rv = 461.5;                ///< water-vapour gas constant, J kg⁻¹ K⁻¹
inline constexpr double lv = 2.5e6;                ///< latent heat of vaporisation, J kg⁻¹
inline constexpr double rho_water = 1000.0;        ///< density of liquid water, kg m⁻³

}  // namespace simapp::physics

namespace simapp::numerics {

inline constexpr int halo_width = 2;        ///< ghost cells on every side
inline constexpr double default_cfl = 1.5;  ///< Courant number of dt unless time.cfl says otherwise
inline constexpr double max_speed = 450.0;  ///< m s⁻¹, bound on |u| + sound speed
inline constexpr double hyperviscosity_beta = 0.05;

}  // namespace simapp::numerics
