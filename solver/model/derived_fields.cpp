#include "solver/model/derived_fields.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

namespace {

/// Variable v as stored.
template <int v>
void stored(const StateRow& row, double* out) {
  std::copy_n(row.variable(v), row.nx, out);
}

/// Momentum `momentum` divided by the density ρ = ρ̄_c + ρ′: a velocity.
template <class V, int momentum>
void velocity(const StateRow& row, double* out) {
  const double* values = row.variable(momentum);
  const double* density_perturbation = row.variable(V::dens);
  const double background = row.background_density;
  for (std::size_t i = 0; i < row.nx; ++i) out[i] = values[i] / (background + density_perturbation[i]);
}

/// θ′ = (ρ̄θ̄_c + (ρθ)′)/ρ − ρ̄θ̄_c/ρ̄_c.
template <class V>
void theta_prime(const StateRow& row, double* out) {
  const double* rho_theta = row.variable(V::rhot);
  const double* density_perturbation = row.variable(V::dens);
  const double density = row.background_density, background = row.background_rho_theta;
  for (std::size_t i = 0; i < row.nx; ++i)
    out[i] = (background + rho_theta[i]) / (density + density_perturbation[i]) - background / density;
}

/// p′ = p(ρ̄θ̄_c + (ρθ)′) − p(ρ̄θ̄_c), p = C₀(ρθ)^γ: the model's own pressure change, free of the
/// cancellation of p and p̄.
template <class V>
void pressure_perturbation(const StateRow& row, double* out) {
  const double* rho_theta = row.variable(V::rhot);
  const double background = row.background_rho_theta;
  const physics::PressureReference reference{background, 1.0 / background, physics::pressure(background)};
  for (std::size_t i = 0; i < row.nx; ++i) out[i] = physics::pressure_change(rho_theta[i], reference);
}

double background_density(double density, double) { return density; }
double background_theta(double density, double rho_theta) { return rho_theta / density; }
/// p̄ = C₀(ρ̄θ̄_c)^γ: with p′, p̄ + p′ = C₀(ρθ)^γ, the pressure of the cell.
double background_pressure(double, double rho_theta) { return physics::pressure(rho_theta); }

/// Each variable as stored, described as the variable table describes it.
template <int Dims, int... v>
void add_stored_variables(std::vector<DerivedField>& fields, std::integer_sequence<int, v...>) {
  (fields.push_back({model_variables<Dims>()[v].stored, stored<v>}), ...);
}

template <int Dims>
std::vector<DerivedField> fields_of_model() {
  using V = ModelVariables<Dims>;
  std::vector<DerivedField> fields{
      {{"rho_prime", "kg m-3", "density perturbation", "", "rho - rho_bar(z)"}, stored<V::dens>},
      {{"u", "m s-1", "velocity in x", "x_wind", "umom / rho"}, velocity<V, V::umom>},
  };
  if constexpr (Dims == 3)
    fields.push_back({{"v", "m s-1", "velocity in y", "y_wind", "vmom / rho (3-D model)"}, velocity<V, V::vmom>});
  fields.insert(
      fields.end(),
      {
          {{"w", "m s-1", "vertical velocity", "upward_air_velocity", "wmom / rho"}, velocity<V, V::wmom>},
          {{"theta_prime", "K", "potential temperature perturbation", "", "theta - theta_bar(z)"}, theta_prime<V>},
          {{"p_prime", "Pa", "pressure perturbation", "",
            "p - p_bar(z), p = C0 (rho theta)^gamma, C0 = Rd^gamma p0^(-Rd/cv)"},
           pressure_perturbation<V>},
      });
  add_stored_variables<Dims>(fields, std::make_integer_sequence<int, V::count>{});
  fields.insert(
      fields.end(),
      {
          {{"rho_bar", "kg m-3", "background density", "", "mean of the hydrostatic background over the cell"},
           nullptr,
           background_density},
          {{"theta_bar", "K", "background potential temperature", "", "(rho theta)_bar / rho_bar"},
           nullptr,
           background_theta},
          {{"p_bar", "Pa", "background pressure", "", "C0 (rho theta)_bar^gamma"}, nullptr, background_pressure},
      });
  return fields;
}

}  // namespace

std::span<const DerivedField> derived_fields(int dims) {
  static const std::vector<DerivedField> fields_2d = fields_of_model<2>(), fields_3d = fields_of_model<3>();
  return dims == 3 ? fields_3d : fields_2d;
}

const DerivedField* find_derived_field(int dims, std::string_view name) {
  const std::span<const DerivedField> fields = derived_fields(dims);
  const auto found =
      std::ranges::find_if(fields, [&](const DerivedField& field) { return field.description.name == name; });
  return found == fields.end() ? nullptr : &*found;
}

namespace {

/// CF's description of water tracer t (vapour, cloud, rain: water_tracer_names' order).
FieldDescription water_description(const VariableInfo& tracer, int t) {
  static constexpr const char* long_names[] = {"water vapour mixing ratio", "cloud water mixing ratio",
                                               "rain water mixing ratio"};
  static constexpr const char* standard_names[] = {"humidity_mixing_ratio", "cloud_liquid_water_mixing_ratio", ""};
  return {tracer.output_name, "kg kg-1", long_names[t], standard_names[t],
          "rho_x / rho_d, rho_x = rho_bar_x + rho_x', rho_d = rho_bar + rho' - (rho_v + rho_c + rho_r) (the dry "
          "air's density)"};
}

/// ρ_x = ρ̄_x + ρ_x′ of tracer t (the state's variable first + t) at cell i of `row`.
double tracer_density(const StateRow& row, int first, int t, std::size_t i) {
  return row.tracer_background[t] + row.variable(first + t)[i];
}

/// ρ_d = ρ̄_c + ρ′ − Σ_water ρ_x at cell i of `row`, the water the state's tracers first .. first + water − 1.
double dry_density(const StateRow& row, int first, int water, std::size_t i) {
  double water_density = 0.0;
  for (int t = 0; t < water; ++t) water_density += tracer_density(row, first, t, i);
  return row.background_density + row.variable(0)[i] - water_density;
}

}  // namespace

std::vector<DerivedField> tracer_fields(const StateVariables& variables, int water) {
  std::vector<DerivedField> fields;
  const int first = variables.first_tracer();
  for (int t = 0; t < water; ++t)
    fields.push_back({water_description(variables[first + t], t),
                      // Holding `variables` keeps the names the description points at.
                      [t, first, water, variables](const StateRow& row, double* out) {
                        for (std::size_t i = 0; i < row.nx; ++i)
                          out[i] = tracer_density(row, first, t, i) / dry_density(row, first, water, i);
                      }});
  for (int t = water; t < variables.size() - first; ++t) {
    const VariableInfo& tracer = variables[first + t];
    fields.push_back({{tracer.output_name, "kg kg-1", "tracer mixing ratio", "",
                       "(rho_bar_x + rho_x') / rho, rho_bar_x = rho_bar (uniform start) or 0 (bump)"},
                      [t, first, variables](const StateRow& row, double* out) {
                        const double* density_perturbation = row.variable(0);
                        for (std::size_t i = 0; i < row.nx; ++i)
                          out[i] =
                              tracer_density(row, first, t, i) / (row.background_density + density_perturbation[i]);
                      }});
  }
  return fields;
}

std::vector<DerivedField> water_fields(const StateVariables& variables, int water) {
  if (water == 0) return {};
  const int first = variables.first_tracer();
  using V2 = ModelVariables<2>;
  using V3 = ModelVariables<3>;
  const int rhot = first == V3::count ? V3::rhot : V2::rhot;  // the dry variables before the tracers
  return {{{"T", "K", "air temperature", "air_temperature",
            "p / (rho_d Rd + rho_v Rv), p = C0 (rho theta)^gamma, rho_d = rho_bar + rho' - (rho_v + rho_c + rho_r), "
            "rho_x = rho_bar_x + rho_x' (the moist temperature)"},
           // T = p/(ρ_d R_d + ρ_v R_v), p = C₀(ρ̄θ̄_c + (ρθ)′)^γ, ρ_d = ρ̄_c + ρ′ − Σ_water ρ_x, ρ_x = ρ̄_x + ρ_x′.
           [first, water, rhot](const StateRow& row, double* out) {
             const double* rho_theta = row.variable(rhot);
             for (std::size_t i = 0; i < row.nx; ++i) {
               const double p = physics::pressure(row.background_rho_theta + rho_theta[i]);
               out[i] = p / (dry_density(row, first, water, i) * physics::rd +
                             tracer_density(row, first, 0, i) * physics::rv);
             }
           }}};
}

std::span<const SurfaceField> surface_fields() {
  static const std::vector<SurfaceField> fields{
      {{"precipitation_amount", "kg m-2", "precipitation amount", "precipitation_amount",
        "the rain that reached the ground since t = 0 (1 kg m-2 is 1 mm of water)"},
       0},
      // The microphysics keeps the rate as a depth of liquid water per time (m s-1); written as
      // the mass flux rho_w · rate, CF's rainfall_flux (kg m-2 s-1), whose integral over time is
      // precipitation_amount (kg m-2). A depth rate would need CF's lwe_ names instead.
      {{"rain_rate", "kg m-2 s-1", "rain rate at the ground", "rainfall_flux",
        "rho_w times the rate at the ground of the last microphysics call (m s-1 of liquid water), rho_w = 1000 kg "
        "m-3"},
       1,
       physics::rho_water},
  };
  return fields;
}

const SurfaceField* find_surface_field(std::string_view name) {
  const std::span<const SurfaceField> fields = surface_fields();
  const auto found =
      std::ranges::find_if(fields, [&](const SurfaceField& field) { return field.description.name == name; });
  return found == fields.end() ? nullptr : &*found;
}

const DerivedField* find_field(int dims, std::span<const DerivedField> tracers, std::string_view name,
                               std::span<const DerivedField> water) {
  if (const DerivedField* field = find_derived_field(dims, name)) return field;
  for (const std::span<const DerivedField> fields : {tracers, water}) {
    const auto found =
        std::ranges::find_if(fields, [&](const DerivedField& field) { return field.description.name == name; });
    if (found != fields.end()) return &*found;
  }
  return nullptr;
}

}  // namespace simapp
