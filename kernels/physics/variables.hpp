#pragma once
/// The prognostic variables per cell, perturbations from the hydrostatic background: four in
/// the 2-D model (`var`), five in 3-D (ModelVariables<3>).

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kernels/backend/host_device.hpp"

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

/// The prognostic variables of the model in `Dims` dimensions (docs/model.md; 3: the x–y–z
/// model of grid.ny > 1, layout q[var][k][j][i]) and its momenta in the order x, (y,) z. The
/// 2-D layout is `var`'s.
template <int Dims>
struct ModelVariables;

template <>
struct ModelVariables<2> {
  static constexpr int dens = var::dens, umom = var::umom, wmom = var::wmom, rhot = var::rhot;
  static constexpr int count = var::count;
  static constexpr int momenta = 2;
  /// The momentum along axis `a` (0: x, 1: z).
  static constexpr int momentum(int a) { return a == 0 ? umom : wmom; }
};

template <>
struct ModelVariables<3> {
  static constexpr int dens = 0;  ///< ρ′
  static constexpr int umom = 1;  ///< ρu
  static constexpr int vmom = 2;  ///< ρv
  static constexpr int wmom = 3;  ///< ρw
  static constexpr int rhot = 4;  ///< (ρθ)′
  static constexpr int count = 5;
  static constexpr int momenta = 3;
  /// The momentum along axis `a` (0: x, 1: y, 2: z).
  static constexpr int momentum(int a) { return a == 0 ? umom : a == 1 ? vmom : wmom; }
};

/// Names of the 3-D model's variables, indexed as ModelVariables<3>.
inline constexpr const char* variable_names_3d[ModelVariables<3>::count] = {"dens", "umom", "vmom", "wmom", "rhot"};

template <class V, class Body, int... a>
SIMAPP_HOST_DEVICE constexpr void for_each_momentum_of(const Body& body, std::integer_sequence<int, a...>) {
  (body(std::integral_constant<int, V::momentum(a)>{}), ...);
}

/// Calls `body(std::integral_constant<int, c>{})` for each momentum variable c of `V`, in the
/// order x, (y,) z, with c a compile-time constant.
template <class V, class Body>
SIMAPP_HOST_DEVICE constexpr void for_each_momentum(const Body& body) {
  for_each_momentum_of<V>(body, std::make_integer_sequence<int, V::momenta>{});
}

/// A half-open range of variables [first, last) that one kernel launch handles.
struct VarRange {
  int first = 0;
  int last = var::count;
};

/// The direction of a split pass (y: the 3-D model's only).
enum class Direction { x, z, y };

/// The one of `x`, `y` and `z` that names direction D: a kernel's label for its pass.
template <Direction D>
constexpr const char* direction_label(const char* x, const char* y, const char* z) {
  return D == Direction::x ? x : D == Direction::y ? y : z;
}

/// Calls `launch(std::integral_constant<Direction, D>{})` with D = `direction`, x or z: the 2-D
/// model's kernels take the direction as a template parameter, launchers as a value.
template <class Launch>
void with_direction(Direction direction, const Launch& launch) {
  if (direction == Direction::y) throw std::invalid_argument("the 2-D model's kernels have no y pass");
  if (direction == Direction::x)
    launch(std::integral_constant<Direction, Direction::x>{});
  else
    launch(std::integral_constant<Direction, Direction::z>{});
}

/// launch(integral_constant<Direction, D>) for the 3-D model's direction D: x, y or z (also in
/// device code: the 3-D persistent kernel's passes).
template <class Launch>
SIMAPP_HOST_DEVICE void with_direction_3d(Direction direction, const Launch& launch) {
  switch (direction) {
    case Direction::x: launch(std::integral_constant<Direction, Direction::x>{}); return;
    case Direction::y: launch(std::integral_constant<Direction, Direction::y>{}); return;
    case Direction::z: launch(std::integral_constant<Direction, Direction::z>{}); return;
  }
#if !defined(__CUDA_ARCH__)
  throw std::invalid_argument("the 3-D model has no such direction");
#endif
}

/// launch(integral_constant<Direction, D>{}) for a direction D of the model of `Dims` dimensions
/// (2: x or z; 3: x, y or z), also in device code: kernels take the direction as a template
/// parameter, launchers as a value.
template <int Dims, class Launch>
SIMAPP_HOST_DEVICE void with_direction_of(Direction direction, const Launch& launch) {
  switch (direction) {
    case Direction::x: launch(std::integral_constant<Direction, Direction::x>{}); return;
    case Direction::z: launch(std::integral_constant<Direction, Direction::z>{}); return;
    case Direction::y:
      if constexpr (Dims == 3) {
        launch(std::integral_constant<Direction, Direction::y>{});
        return;
      }
      break;
  }
#if !defined(__CUDA_ARCH__)
  throw std::invalid_argument(Dims == 3 ? "the 3-D model has no such direction" : "the 2-D model has no y pass");
#endif
}

}  // namespace simapp
