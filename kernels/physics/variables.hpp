#pragma once
/// The prognostic variables per cell, perturbations from the hydrostatic background: four in
/// the 2-D model (`var`), five in 3-D (ModelVariables<3>); their indices, and the table that
/// describes each (model_variables<Dims>()), from which whatever names, counts or stores the
/// variables outside the kernels takes them.

#include <array>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

#include "kernels/backend/host_device.hpp"
#include "kernels/physics/field_description.hpp"

namespace simapp {

namespace var {
inline constexpr int dens = 0;  ///< ρ′, kg m⁻³
inline constexpr int umom = 1;  ///< ρu, kg m⁻² s⁻¹
inline constexpr int wmom = 2;  ///< ρw, kg m⁻² s⁻¹
inline constexpr int rhot = 3;  ///< (ρθ)′, kg m⁻³ K
inline constexpr int count = 4;
}  // namespace var

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

/// What a prognostic variable is: what its ghost cells are made of and which field it is
/// written as follow from it.
enum class VariableKind : unsigned char {
  density_perturbation,    ///< ρ′
  momentum,                ///< ρu along one axis
  rho_theta_perturbation,  ///< (ρθ)′, the potential-temperature density perturbation
  tracer,                  ///< a passive scalar, stored as a density perturbation
};

/// What a free-slip wall makes of a variable's ghost cell from the adjacent interior cell
/// (kernels/boundary/ghost_rules.hpp, wall_ghost).
enum class WallRule : unsigned char {
  copy,           ///< its value
  copy_velocity,  ///< its velocity: the momentum times the ghost row's over the interior row's ρ̄_c
  zero,           ///< 0: the momentum through the wall
};

/// What an inflow side makes of a variable in its inflow rows' ghost cells, ρ the ghost cell's
/// density (ghost_rules.hpp, apply_inflow).
enum class InflowRule : unsigned char {
  keep,              ///< its value as the periodic image or the neighbour rank gives it
  inflow_momentum,   ///< ρ · the inflow's u
  inflow_rho_theta,  ///< ρ · the inflow's θ − ρ̄θ̄_c
};

/// One prognostic variable of a model.
struct VariableInfo {
  FieldDescription stored;  ///< as stored: its name in checkpoints, snapshots and messages ("dens")
  const char* output_name;  ///< the physical field it is written as (solver/model/derived_fields.hpp)
  const char* diffused_as;  ///< what diffuses of it: "u" by physics.viscosity, "theta" by .diffusivity; "" nothing
  VariableKind kind;
  int axis;  ///< a momentum's axis, as ModelVariables::momentum numbers them (x, (y,) z); else -1
  WallRule wall;
  InflowRule inflow;
};

/// A model's variables in the order of their indices: the dry ones, then the tracers
/// [first_tracer(), size()), none in today's models. A tracer is one more entry at the end.
class VariableTable {
 public:
  constexpr VariableTable(const VariableInfo* entries, int count) : entries_(entries), count_(count) {}

  constexpr int size() const { return count_; }
  constexpr const VariableInfo& operator[](int v) const { return entries_[v]; }
  constexpr const VariableInfo* begin() const { return entries_; }
  constexpr const VariableInfo* end() const { return entries_ + count_; }

  /// The first tracer's index; size() when there is none.
  constexpr int first_tracer() const {
    int v = 0;
    while (v < count_ && entries_[v].kind != VariableKind::tracer) ++v;
    return v;
  }
  /// The index of the variable stored as `name`; -1 when there is none.
  constexpr int index_of(std::string_view name) const {
    for (int v = 0; v < count_; ++v)
      if (name == entries_[v].stored.name) return v;
    return -1;
  }

 private:
  const VariableInfo* entries_;
  int count_;
};

namespace variable_entries {

// Each entry: its stored description (name, unit, long_name, standard_name, comment), then
// output_name, diffused_as, kind, axis, wall and inflow rules.
// clang-format off
inline constexpr VariableInfo density{
    {"dens", "kg m-3", "prognostic density perturbation", "", "rho'"},
    "rho_prime", "", VariableKind::density_perturbation, -1, WallRule::copy, InflowRule::keep};
inline constexpr VariableInfo x_momentum{
    {"umom", "kg m-2 s-1", "momentum in x", "", "rho u"},
    "u", "u", VariableKind::momentum, 0, WallRule::copy_velocity, InflowRule::inflow_momentum};
inline constexpr VariableInfo y_momentum{
    {"vmom", "kg m-2 s-1", "momentum in y", "", "rho v (3-D model)"},
    "v", "v", VariableKind::momentum, 1, WallRule::copy_velocity, InflowRule::keep};
/// The vertical momentum, along the model's last axis, `axis`.
constexpr VariableInfo z_momentum(int axis) {
  return {{"wmom", "kg m-2 s-1", "vertical momentum", "", "rho w"},
          "w", "w", VariableKind::momentum, axis, WallRule::zero, InflowRule::keep};
}
inline constexpr VariableInfo rho_theta{
    {"rhot", "kg m-3 K", "rho theta perturbation", "", "(rho theta)'"},
    "theta_prime", "theta", VariableKind::rho_theta_perturbation, -1, WallRule::copy, InflowRule::inflow_rho_theta};
// clang-format on

/// A tracer: its density perturbation ρ_x′ stored as `stored_name`, written as its mixing ratio
/// `output_name`; its wall ghost rows copy the adjacent row (no tracer crosses a wall) and an
/// inflow keeps it.
constexpr VariableInfo tracer(const char* stored_name, const char* output_name, const char* comment) {
  return {{stored_name, "kg m-3", "tracer density perturbation", "", comment},
          output_name,
          "",
          VariableKind::tracer,
          -1,
          WallRule::copy,
          InflowRule::keep};
}

inline constexpr std::array<VariableInfo, ModelVariables<2>::count> model_2d{density, x_momentum, z_momentum(1),
                                                                             rho_theta};
inline constexpr std::array<VariableInfo, ModelVariables<3>::count> model_3d{density, x_momentum, y_momentum,
                                                                             z_momentum(2), rho_theta};

}  // namespace variable_entries

/// The variables of the model in `Dims` dimensions, indexed as ModelVariables<Dims>.
template <int Dims>
constexpr VariableTable model_variables() {
  static_assert(Dims == 2 || Dims == 3, "the models are 2-D and 3-D");
  if constexpr (Dims == 2)
    return {variable_entries::model_2d.data(), static_cast<int>(variable_entries::model_2d.size())};
  else
    return {variable_entries::model_3d.data(), static_cast<int>(variable_entries::model_3d.size())};
}

/// The model of a grid of `ny` cells in y: the 3-D model when ny > 1, else the 2-D one.
constexpr int model_dimensions(int ny) { return ny > 1 ? 3 : 2; }

/// The variables of the model in `dims` dimensions, 2 or 3.
constexpr VariableTable model_variables(int dims) { return dims == 3 ? model_variables<3>() : model_variables<2>(); }

/// The variables of the model of a grid of `ny` cells in y.
constexpr VariableTable model_variables_of_grid(int ny) { return model_variables(model_dimensions(ny)); }

/// Whether the table of the model in `Dims` dimensions agrees with ModelVariables<Dims>: one
/// entry a variable, each dry variable of its kind at its index, each momentum along its axis,
/// the tracers after the dry variables.
template <int Dims>
constexpr bool table_agrees_with_indices() {
  using V = ModelVariables<Dims>;
  constexpr VariableTable table = model_variables<Dims>();
  bool agrees = table.size() == V::count && table[V::dens].kind == VariableKind::density_perturbation &&
                table[V::rhot].kind == VariableKind::rho_theta_perturbation;
  for (int a = 0; a < V::momenta; ++a)
    agrees = agrees && table[V::momentum(a)].kind == VariableKind::momentum && table[V::momentum(a)].axis == a;
  for (int v = table.first_tracer(); v < table.size(); ++v) agrees = agrees && table[v].kind == VariableKind::tracer;
  return agrees;
}
static_assert(table_agrees_with_indices<2>(), "model_variables<2>() and ModelVariables<2> disagree");
static_assert(table_agrees_with_indices<3>(), "model_variables<3>() and ModelVariables<3> disagree");

/// The stored names of the variables of the model in `Dims` dimensions, indexed as its
/// ModelVariables (the step's operations are named after them).
template <int Dims>
constexpr std::array<const char*, ModelVariables<Dims>::count> stored_names() {
  std::array<const char*, ModelVariables<Dims>::count> names{};
  for (int v = 0; v < ModelVariables<Dims>::count; ++v) names[v] = model_variables<Dims>()[v].stored.name;
  return names;
}
template <int Dims>
inline constexpr std::array<const char*, ModelVariables<Dims>::count> variable_names = stored_names<Dims>();

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
