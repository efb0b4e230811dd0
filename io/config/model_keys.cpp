#include "io/config/model_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "foundation/error.hpp"
#include "foundation/printable_text.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "kernels/cases/case_list.hpp"
#include "solver/grid/state_variables.hpp"

namespace simapp::io {
namespace {

/// The place of `path` when it was given, else the file.
std::string place_of(std::string_view path, const KeyPlaces& places, const std::string& file) {
  const auto place = places.find(path);
  return place != places.end() ? place->second : file;
}

/// A list as the messages show it: [2, 1, 3], [5000, inf].
template <class T>
std::string list_text(const std::vector<T>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

/// The cases whose bump perturbation.* configures in this build.
std::string configurable_cases() {
  std::vector<std::string_view> names;
  for (const auto& [name, text] : case_names)
    if (has_bump(name)) names.push_back(text);
  return fmt::format("{}", fmt::join(names, ", "));
}

void check_dimensions(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  if (spec.grid.ny == 1 && three_d_only(spec.case_name))
    throw Error(ExitCode::bad_input, place_of("grid.ny", places, file),
                fmt::format("grid.ny: case {} is a 3-D case; give grid.ny > 1", to_string(spec.case_name)));
  const auto& [px, py, pz] = spec.parallel.ranks;
  if (spec.grid.ny == 1 && py > 1)
    throw Error(
        ExitCode::bad_input, place_of("parallel.ranks", places, file),
        fmt::format("parallel.ranks = [{}, {}, {}]: py = {} ranks along y, but a 2-D run (grid.ny = 1) has one; "
                    "give [px, pz] or [px, 1, pz]",
                    px, py, pz, py));
}

/// The value of a perturbation key as given, for a message.
std::string given_value(std::string_view path, const PerturbationSpec& perturbation) {
  if (path == "perturbation.center") return list_text(perturbation.center);
  if (path == "perturbation.radii") return list_text(perturbation.radii);
  return fmt::format("{}", perturbation.amplitude.value_or(0.0));
}

void check_perturbation(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  const PerturbationSpec& perturbation = spec.perturbation;
  if (!perturbation.given()) return;
  const auto first_given = [&] {
    for (const std::string_view path : {"perturbation.center", "perturbation.radii", "perturbation.amplitude"})
      if (places.contains(path)) return path;
    return std::string_view("perturbation.center");
  };
  const std::string_view path = first_given();
  const std::string where = place_of(path, places, file);
  const std::string_view case_text = to_string(spec.case_name);
  if (!has_bump(spec.case_name))
    throw Error(ExitCode::bad_input, where,
                fmt::format("{} = {}: the {} case has no bump to configure (perturbation.* applies to {})", path,
                            given_value(path, perturbation), case_text, configurable_cases()));
  for (const std::string_view list : {"perturbation.center", "perturbation.radii"}) {
    const std::vector<double>& values = list == "perturbation.center" ? perturbation.center : perturbation.radii;
    if (spec.grid.ny == 1 && values.size() == 3)
      throw Error(ExitCode::bad_input, place_of(list, places, file),
                  fmt::format("{} = {}: three numbers [x, y, z] are for the 3-D model (grid.ny > 1); a 2-D run "
                              "takes [x, z]",
                              list, list_text(values)));
  }
}

/// Whether `name` is a tracer's name: a letter, then letters, digits and underscores.
bool is_tracer_name(const std::string& name) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return !name.empty() && letter(name.front()) &&
         std::ranges::all_of(name, [&](char c) { return letter(c) || digit(c) || c == '_'; });
}

/// What already has `name` among the snapshot fields and the names of the tracers before
/// tracer `index`; empty when nothing has.
std::string owner_of(const std::string& name, const std::vector<std::string>& tracers, std::size_t index) {
  for (const FieldInfo& field : snapshot_fields())
    if (field.name == name) return "a snapshot field's name";
  for (std::size_t t = 0; t < index; ++t) {
    const bool water = std::ranges::find(water_tracer_names, tracers[t]) != water_tracer_names.end();
    const std::string whose = (water ? "water tracer " : "tracer ") + tracers[t];
    if (tracers[t] == name) return whose + "'s mixing ratio";
    if (tracer_stored_name(tracers[t]) == name) return whose + "'s density";
  }
  return "";
}

/// physics.tracers: names of letters, digits and _, whose mixing ratio (the name) and stored
/// density ("rho" + name) name no other field.
void check_tracers(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  if (spec.grid.tracers.empty()) return;
  const std::vector<std::string> tracers = state_tracers(spec.grid);  // the water's first
  const std::string where = place_of("physics.tracers", places, file);
  for (std::size_t t = tracers.size() - spec.grid.tracers.size(); t < tracers.size(); ++t) {
    const std::string& name = tracers[t];
    if (!is_tracer_name(name))
      throw Error(ExitCode::bad_input, where,
                  fmt::format("physics.tracers: '{}' is not a tracer name (a letter, then letters, digits or _)",
                              printable(name)));
    for (const std::string& own : {name, tracer_stored_name(name)})
      if (const std::string owner = owner_of(own, tracers, t); !owner.empty())
        throw Error(ExitCode::bad_input, where,
                    fmt::format("physics.tracers: tracer {} would be written as {}, already {}", name, own, owner));
  }
}

}  // namespace

void resolve_defaults(RunSpec& spec, const KeyPlaces& places) {
  if (!places.contains("grid.ylen")) spec.grid.ylen = spec.grid.xlen;
  if (!places.contains("output.stats_every")) spec.output.stats_every = spec.output.every;
  if (!places.contains("physics.diffusivity")) spec.physics.diffusivity = spec.physics.viscosity;
  std::vector<std::string>& variables = spec.output.variables;
  if (!places.contains("output.variables")) variables = default_output_variables(spec.grid.ny);
  // Every field ("all") in the 2-D model: those it has.
  const auto fields = std::ranges::count_if(variables, [&](const std::string& name) {
    return std::ranges::find(spec.grid.tracers, name) == spec.grid.tracers.end();
  });
  if (spec.grid.ny == 1 && static_cast<std::size_t>(fields) == snapshot_fields().size())
    std::erase_if(variables, is_3d_field);
}

void check_model_keys(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  check_dimensions(spec, places, file);
  if (spec.grid.ny == 1)
    for (const std::string& name : spec.output.variables)
      if (is_3d_field(name))
        throw Error(
            ExitCode::bad_input, place_of("output.variables", places, file),
            fmt::format("output.variables: {} is a field of the 3-D model (grid.ny > 1); this run is 2-D", name));
  check_perturbation(spec, places, file);
  check_tracers(spec, places, file);
  if (carries_water(spec.case_name) && spec.grid.microphysics == Microphysics::none)
    throw Error(
        ExitCode::bad_input, place_of("physics.microphysics", places, file),
        fmt::format("case {} starts with water: it needs physics.microphysics: kessler", to_string(spec.case_name)));
}

}  // namespace simapp::io
