#pragma once
/// The four prognostic variables per cell, perturbations from the hydrostatic background.

namespace simapp {

namespace var {
inline constexpr int dens = 0;  ///< ρ′, kg m⁻³
inline constexpr int umom = 1;  ///< ρu, kg m⁻² s⁻¹
inline constexpr int wmom = 2;  ///< ρw, kg m⁻² s⁻¹
inline constexpr int rhot = 3;  ///< (ρθ)′, kg m⁻³ K
inline constexpr int count = 4;
}  // namespace var

/// Names of the variables, indexed as above.
inline constexpr const char* variable_names[var::count] = {"dens", "umom", "wmom", "rhot"};

/// A half-open range of variables [first, last) that one kernel launch handles.
struct VarRange {
  int first = 0;
  int last = var::count;
};

/// The direction of a split pass.
enum class Direction { x, z };

}  // namespace simapp
