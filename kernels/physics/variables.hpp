#pragma once
/// The four prognostic variables per cell, perturbations from the hydrostatic background.

#include <type_traits>

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

/// Calls `launch(std::integral_constant<Direction, D>{})` with D = `direction`: kernels take
/// the direction as a template parameter, launchers as a value.
template <class Launch>
void with_direction(Direction direction, const Launch& launch) {
  if (direction == Direction::x)
    launch(std::integral_constant<Direction, Direction::x>{});
  else
    launch(std::integral_constant<Direction, Direction::z>{});
}

}  // namespace simapp
