#pragma once
/// The fields the model's snapshots can hold, as a table: each field's description (name, unit,
/// CF names) and how it is computed from the stored variables and the hydrostatic background.
/// The writers of files list and compute the fields through this table alone.
///
/// Fields of the grid, in this order: the physical fields each variable is written as (its
/// output_name: rho_prime, u, (v,) w, theta_prime) and p_prime, with ρ = ρ̄_c + dens: ρ′ = dens,
/// u = umom/ρ, v = vmom/ρ, w = wmom/ρ, θ′ = (ρ̄θ̄_c + rhot)/ρ − ρ̄θ̄_c/ρ̄_c,
/// p′ = C₀(ρ̄θ̄_c + rhot)^γ − C₀(ρ̄θ̄_c)^γ; then the variables as stored (dens, umom, (vmom,) wmom,
/// rhot). Profiles of the background (cell means of each layer), on z: rho_bar = ρ̄_c,
/// theta_bar = ρ̄θ̄_c/ρ̄_c, p_bar = C₀(ρ̄θ̄_c)^γ, so that ρ = rho_bar + rho_prime, θ = theta_bar +
/// theta_prime and p = p_bar + p_prime. v and vmom are the 3-D model's only.
#include <cstddef>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "kernels/physics/field_description.hpp"
#include "solver/grid/state_variables.hpp"

namespace simapp {

/// A row of nx cells of the state as a field of the grid reads it: each variable's values along
/// the row, and the background of the row's layer.
struct StateRow {
  const double* values = nullptr;   ///< variable 0 at the row's first cell
  std::size_t variable_stride = 0;  ///< from a variable's value to the next variable's, at one cell
  std::size_t nx = 0;
  double background_density = 0.0;    ///< ρ̄_c of the layer
  double background_rho_theta = 0.0;  ///< ρ̄θ̄_c of the layer
  /// ρ̄_x of each tracer at the layer, [t] for the state's tracer t (docs/model.md, "Tracers"); null
  /// without tracers.
  const double* tracer_background = nullptr;

  /// Variable v along the row.
  const double* variable(int v) const { return values + static_cast<std::size_t>(v) * variable_stride; }
};

/// Computes a field of the grid along `row` into out[0..row.nx).
using RowDerivation = std::function<void(const StateRow& row, double* out)>;
/// Computes a profile's value at a layer from the background there: ρ̄_c and ρ̄θ̄_c.
using LayerDerivation = double (*)(double density, double rho_theta);

/// A field a snapshot can hold: a field of the grid (`row`) or a profile of the background (`layer`).
struct DerivedField {
  FieldDescription description;
  RowDerivation row = nullptr;
  LayerDerivation layer = nullptr;

  bool is_profile() const { return layer != nullptr; }
};

/// The fields of the model in `dims` dimensions (2 or 3), in the order above.
std::span<const DerivedField> derived_fields(int dims);

/// The field `name` of the model in `dims` dimensions; nullptr when it has none.
const DerivedField* find_derived_field(int dims, std::string_view name);

/// The mixing ratio of each tracer of `variables`, named as the tracer, kg kg-1, with ρ_x = ρ̄_x +
/// ρ_x′ (ρ̄_x the row's tracer_background). The water's first `water` tracers
/// (physics.microphysics; docs/model.md, "Moisture") per kilogram of dry air, q_x = ρ_x/ρ_d with
/// ρ_d = ρ̄_c + ρ′ − Σ_water ρ_x; those of physics.tracers per kilogram of air, q_x = ρ_x/(ρ̄_c + ρ′)
/// (docs/model.md, "Tracers"). Each field holds its names.
std::vector<DerivedField> tracer_fields(const StateVariables& variables, int water);

/// The fields of the grid a run with water (physics.microphysics; docs/model.md, "Moisture") adds
/// besides its tracers' mixing ratios, reading the water's `water` tracers of `variables`: the
/// moist temperature T = p/(ρ_d R_d + ρ_v R_v), p = C₀(ρ̄θ̄_c + (ρθ)′)^γ, ρ_d = ρ̄_c + ρ′ − Σ_water ρ_x,
/// ρ_x = ρ̄_x + ρ_x′ (as for their mixing ratios), K. None without water.
std::vector<DerivedField> water_fields(const StateVariables& variables, int water);

/// A field over the surface of a run with water: one of the microphysics' surface fields
/// (SurfaceWater: precipitation_amount 0, the rain rate 1, the clipped water 2), times `scale`.
struct SurfaceField {
  FieldDescription description;
  int field = 0;  ///< which surface field
  double scale = 1.0;
};

/// The surface fields a snapshot of a run with water holds: precipitation_amount and rain_rate.
std::span<const SurfaceField> surface_fields();

/// The surface field `name`; nullptr when none is.
const SurfaceField* find_surface_field(std::string_view name);

/// The field `name` among the model's of `dims` dimensions, `tracers` and `water` (the fields of
/// water_fields); nullptr when none is.
const DerivedField* find_field(int dims, std::span<const DerivedField> tracers, std::string_view name,
                               std::span<const DerivedField> water = {});

}  // namespace simapp
