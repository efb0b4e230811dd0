#include "io/config/run_limits.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "foundation/error.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/hydrostatic/hydrostatic_state.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/column/hydrostatic_column.hpp"
#include "solver/column/run_column.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp::io {
namespace {

/// The first of `paths` that was given, with its place.
std::optional<std::pair<std::string_view, std::string>> first_given(const KeyPlaces& places,
                                                                    std::initializer_list<std::string_view> paths) {
  for (const std::string_view path : paths)
    if (const auto found = places.find(path); found != places.end()) return std::pair{path, found->second};
  return std::nullopt;
}

/// A count of steps: in full while it reads easily, else with an exponent.
std::string steps_text(double steps) {
  return steps <= 1e15 ? fmt::format("{:.0f}", steps) : fmt::format("{:g}", steps);
}

void check_cell_count(const GridSpec& grid, const KeyPlaces& places, const std::string& file) {
  const std::int64_t cells = std::int64_t{grid.nx} * grid.ny * grid.nz;
  if (cells <= max_grid_cells) return;
  const auto key = first_given(places, {"grid.nx", "grid.ny", "grid.nz"});
  const std::string sizes =
      grid.ny > 1 ? fmt::format("{} x {} x {}", grid.nx, grid.ny, grid.nz) : fmt::format("{} x {}", grid.nx, grid.nz);
  throw Error(ExitCode::bad_input, key ? key->second : file,
              fmt::format("{}: {} = {} cells; at most {} (2^40) are allowed", key ? key->first : "grid.nx", sizes,
                          cells, max_grid_cells));
}

/// The state's arrays on one rank holding the whole grid (the most any decomposition gives a rank)
/// have at most max_field_rows rows (FieldShape::rows: variables × ghost-padded ny × nz, the faces'
/// nz + 1 counted): kernels count the rows in an int (FieldShape::offset).
void check_row_count(const GridSpec& grid, const KeyPlaces& places, const std::string& file) {
  const bool three_d = grid.ny > 1;
  const long vars =
      (three_d ? ModelVariables<3>::count : ModelVariables<2>::count) + static_cast<long>(state_tracers(grid).size());
  const long halo = numerics::halo_width;
  const long rows = vars * (grid.nz + 2 * halo + 1) * (three_d ? grid.ny + 2 * halo : 1);
  if (rows <= max_field_rows) return;
  const auto key = first_given(places, three_d ? std::initializer_list<std::string_view>{"grid.ny", "grid.nz"}
                                               : std::initializer_list<std::string_view>{"grid.nz"});
  throw Error(ExitCode::bad_input, key ? key->second : file,
              fmt::format("{}: {} variables on {} rows of cells (ny x nz with ghost cells) make {} rows of values; at "
                          "most {} (2^31 - 1) are allowed",
                          key ? key->first : "grid.nz", vars, rows / vars, rows, max_field_rows));
}

/// Reported at time.sim_time when it was given, else at the length or cell count (in that
/// order) that was given for the direction of the smaller spacing, which sets dt.
void check_step_count(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  const GridSpec& grid = spec.grid;
  const double dx = grid.xlen / grid.nx;
  const double dz = grid.zlen / grid.nz;
  const double dt = time_step(horizontal_spacing(grid), dz, spec.time.cfl, spec.physics.largest_coefficient());
  const double steps = step_count(spec.time.sim_time, dt);
  if (steps <= static_cast<double>(max_time_steps)) return;
  const std::string count = fmt::format("{} steps; at most {} steps are allowed", steps_text(steps), max_time_steps);
  const auto sim_time = places.find("time.sim_time");
  struct Direction {
    std::string_view length_key;
    double length;
    std::string_view cells_key;
    int cells;
  };
  const Direction direction = dx <= dz ? Direction{"grid.xlen", grid.xlen, "grid.nx", grid.nx}
                                       : Direction{"grid.zlen", grid.zlen, "grid.nz", grid.nz};
  const auto length = places.find(direction.length_key);
  const auto cells = places.find(direction.cells_key);
  const std::string consequence =
      fmt::format("dt = {:g} s, so time.sim_time = {} s is {}", dt, spec.time.sim_time, count);
  if (sim_time == places.end() && length != places.end())
    throw Error(ExitCode::bad_input, length->second,
                fmt::format("{}: {} m gives {}", direction.length_key, direction.length, consequence));
  if (sim_time == places.end() && cells != places.end())
    throw Error(ExitCode::bad_input, cells->second,
                fmt::format("{}: {} cells give {}", direction.cells_key, direction.cells, consequence));
  throw Error(ExitCode::bad_input, sim_time != places.end() ? sim_time->second : file,
              fmt::format("time.sim_time: {} s at dt = {:g} s is {}", spec.time.sim_time, dt, count));
}

/// An interval shorter than dt would put more outputs than steps into the schedule.
void check_interval(std::string_view path, double every, std::string_view outputs, double dt, const KeyPlaces& places,
                    const std::string& file) {
  if (every <= 0.0 || every >= dt) return;
  const auto place = places.find(path);
  throw Error(ExitCode::bad_input, place != places.end() ? place->second : file,
              fmt::format("{}: {} s is shorter than the time step dt = {:g} s (use 0 for no {}, or at least dt)", path,
                          every, dt, outputs));
}

/// The place of `path` when it was given, else the file.
std::string place_of(std::string_view path, const KeyPlaces& places, const std::string& file) {
  const auto place = places.find(path);
  return place != places.end() ? place->second : file;
}

/// The pressure and density of a run's background at the ground and at the top of its domain:
/// its case's analytic background, or its sounding integrated hydrostatically.
struct BackgroundPoint {
  double pressure = 0.0, density = 0.0;
};
std::pair<BackgroundPoint, BackgroundPoint> ground_and_top(const RunSpec& spec) {
  if (const std::optional<ColumnSource> column = run_column(spec)) {
    const std::array heights{0.0, spec.grid.zlen};
    const std::vector<ColumnPoint> points =
        integrate_hydrostatic(column->sounding, 0.0, column->surface_pressure, heights);
    return {{points[0].pressure, points[0].density}, {points[1].pressure, points[1].density}};
  }
  const HydrostaticBackground background = case_background(spec.case_name);
  const HydrostaticPoint ground = background.at(0.0), top = background.at(spec.grid.zlen);
  return {{ground.pressure, ground.density}, {top.pressure, top.density}};
}

/// A domain the case's atmosphere fills, whose totals are numbers: the background must stand
/// at the top (a neutral one ends where its Exner function reaches 0, at z = c_p θ₀ / g ≈ 30.7
/// km, a stratified one lower), and the mass and energy of the whole domain, bounded by those of
/// its densest row with the fastest signal the time step allows, must not overflow.
void check_domain(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  const GridSpec& grid = spec.grid;
  const auto [ground, top] = ground_and_top(spec);
  if (!(top.pressure > 0.0 && std::isfinite(top.density) && top.density > 0.0))
    throw Error(ExitCode::bad_input, place_of("grid.zlen", places, file),
                fmt::format("grid.zlen: {:g} m is above the top of the {} case's atmosphere (its hydrostatic pressure "
                            "falls to 0 below that height); use a lower domain",
                            grid.zlen, to_string(spec.case_name)));
  const double temperature = ground.pressure / (ground.density * physics::rd);
  const double energy_density =
      ground.density * (physics::cv * temperature + numerics::max_speed * numerics::max_speed);
  const bool three_d = grid.ny > 1;  // the 2-D model counts per metre of y
  if (std::isfinite(energy_density * grid.xlen * grid.zlen * (three_d ? grid.ylen : 1.0))) return;
  std::pair<std::string_view, double> longest{"grid.xlen", grid.xlen};
  if (three_d && grid.ylen > longest.second) longest = {"grid.ylen", grid.ylen};
  if (grid.zlen > longest.second) longest = {"grid.zlen", grid.zlen};
  const std::string sides = three_d ? fmt::format("{:g} m x {:g} m x {:g} m", grid.xlen, grid.ylen, grid.zlen)
                                    : fmt::format("{:g} m x {:g} m", grid.xlen, grid.zlen);
  throw Error(ExitCode::bad_input, place_of(longest.first, places, file),
              fmt::format("{}: a domain of {} holds more mass and energy than a double can count; use a smaller domain",
                          longest.first, sides));
}

/// A time within step_tolerance · dt of a step's end is that end, so a sim_time below it is
/// t = 0: there would be no step to take (its single step of a subnormal dt overflowed the
/// hyperviscosity, whose coefficient goes as 1/dt).
void check_sim_time(const RunSpec& spec, double dt, const KeyPlaces& places, const std::string& file) {
  const double shortest = step_tolerance * dt;
  if (spec.time.sim_time >= shortest) return;
  throw Error(ExitCode::bad_input, place_of("time.sim_time", places, file),
              fmt::format("time.sim_time: {:g} s is within round-off of t = 0 (less than {:g} of the time step dt = "
                          "{:g} s), so the run has no step to take; give at least {:g} s",
                          spec.time.sim_time, step_tolerance, dt, shortest));
}

}  // namespace

void check_run_limits(const RunSpec& spec, const KeyPlaces& places, const std::string& file) {
  check_cell_count(spec.grid, places, file);
  check_row_count(spec.grid, places, file);
  check_domain(spec, places, file);
  check_step_count(spec, places, file);
  const double dt = time_step(horizontal_spacing(spec.grid), spec.grid.zlen / spec.grid.nz, spec.time.cfl,
                              spec.physics.largest_coefficient());
  check_sim_time(spec, dt, places, file);
  check_interval("output.every", spec.output.every, "snapshots", dt, places, file);
  check_interval("output.checkpoint_every", spec.output.checkpoint_every, "checkpoints", dt, places, file);
  check_interval("output.stats_every", spec.output.stats_every, "statistics", dt, places, file);
}

}  // namespace simapp::io
