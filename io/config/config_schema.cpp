#include "io/config/config_schema.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include "io/hdf5/snapshot_writer.hpp"
#include "kernels/cases/case_list.hpp"
#include "solver/step/steps_per_graph.hpp"

namespace simapp::io {
namespace {

constexpr std::array<std::pair<BackendChoice, std::string_view>, 3> backend_choices{{
    {BackendChoice::automatic, to_string(BackendChoice::automatic)},
    {BackendChoice::cuda, to_string(BackendChoice::cuda)},
    {BackendChoice::host, to_string(BackendChoice::host)},
}};

/// The values a number key accepts.
struct Range {
  std::optional<LowerBound> minimum;
  std::optional<double> maximum;
};

constexpr Range any_value{};
constexpr Range at_least(double value) { return {LowerBound{value, Bound::inclusive}, std::nullopt}; }
constexpr Range above(double value) { return {LowerBound{value, Bound::exclusive}, std::nullopt}; }
constexpr Range between(double lowest, double highest) { return {LowerBound{lowest, Bound::inclusive}, highest}; }

template <class T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, int>) {
    return ValueType::integer;
  } else if constexpr (std::is_same_v<T, double>) {
    return ValueType::real;
  } else {
    static_assert(std::is_same_v<T, std::string>, "a key's RunSpec field is int, double or std::string");
    return ValueType::string;
  }
}

/// A key stored as is in the RunSpec field that `field(spec)` refers to.
template <class Field>
ConfigKey value_key(std::string_view path, std::string_view unit, Range range, std::string_view doc, Field field) {
  using T = std::remove_cvref_t<std::invoke_result_t<Field&, RunSpec&>>;
  return {path,
          value_type_of<T>(),
          unit,
          range.minimum,
          range.maximum,
          {},
          doc,
          [field](RunSpec& spec, const ConfigValue& value) { field(spec) = std::get<T>(value); },
          [field](const RunSpec& spec) { return ConfigValue{field(spec)}; }};
}

/// A date_time key, stored as the text given.
template <class Field>
ConfigKey date_time_key(std::string_view path, std::string_view doc, Field field) {
  ConfigKey key = value_key(path, "", any_value, doc, field);
  key.type = ValueType::date_time;
  return key;
}

/// A key naming one of `names`, stored as the matching enumerator.
template <class Enum, std::size_t N, class Field>
ConfigKey enum_key(std::string_view path, std::string_view doc,
                   const std::array<std::pair<Enum, std::string_view>, N>& names, Field field) {
  using Entry = std::pair<Enum, std::string_view>;
  std::vector<std::string_view> allowed;
  for (const auto& [value, name] : names) allowed.push_back(name);
  return {path,
          ValueType::enumeration,
          "",
          std::nullopt,
          std::nullopt,
          std::move(allowed),
          doc,
          [field, names](RunSpec& spec, const ConfigValue& value) {
            const std::string_view name = std::get<std::string>(value);
            field(spec) = std::ranges::find(names, name, &Entry::second)->first;
          },
          [field, names](const RunSpec& spec) {
            return ConfigValue{std::string(std::ranges::find(names, field(spec), &Entry::first)->second)};
          }};
}

/// A key listing some of `allowed`, stored as a NameList.
template <class Field>
ConfigKey name_list_key(std::string_view path, std::string_view doc, std::vector<std::string_view> allowed,
                        Field field) {
  return {path,
          ValueType::name_list,
          "",
          std::nullopt,
          std::nullopt,
          std::move(allowed),
          doc,
          [field](RunSpec& spec, const ConfigValue& value) { field(spec) = std::get<NameList>(value); },
          [field](const RunSpec& spec) { return ConfigValue{field(spec)}; }};
}

/// A key listing some of `names`, stored as the matching enumerators in the order given.
template <class Enum, std::size_t N, class Field>
ConfigKey enum_list_key(std::string_view path, std::string_view doc, std::vector<std::string_view> allowed,
                        const std::array<std::pair<Enum, std::string_view>, N>& names, Field field) {
  using Entry = std::pair<Enum, std::string_view>;
  return {path,
          ValueType::name_list,
          "",
          std::nullopt,
          std::nullopt,
          std::move(allowed),
          doc,
          [field, names](RunSpec& spec, const ConfigValue& value) {
            field(spec).clear();
            for (const std::string& name : std::get<NameList>(value))
              field(spec).push_back(std::ranges::find(names, name, &Entry::second)->first);
          },
          [field, names](const RunSpec& spec) {
            NameList list;
            for (const Enum item : field(spec))
              list.emplace_back(std::ranges::find(names, item, &Entry::first)->second);
            return ConfigValue{list};
          }};
}

/// Whether a run has tracers: their keys are listed in its resolved configuration only then.
bool has_tracers(const RunSpec& spec) { return !spec.grid.tracers.empty(); }

/// Whether a run holds water: the microphysics' keys are listed in its resolved configuration only then.
bool has_water(const RunSpec& spec) { return spec.grid.microphysics != Microphysics::none; }

/// `key`, listed in the resolved configuration only where `listed(spec)` holds.
ConfigKey listed_when(ConfigKey key, std::function<bool(const RunSpec&)> listed) {
  key.listed = std::move(listed);
  return key;
}

/// parallel.ranks: [px, pz] (one rank along y) or [px, py, pz], stored as {px, py, pz}; read
/// back as two where the run is 2-D and py is 0 or 1 (the same layout), so that a 2-D
/// configuration resolves as it always has.
ConfigKey ranks_key(std::string_view doc) {
  return {"parallel.ranks",
          ValueType::integer_list,
          "",
          LowerBound{0, Bound::inclusive},
          std::nullopt,
          {},
          doc,
          [](RunSpec& spec, const ConfigValue& value) {
            const IntegerList& ranks = std::get<IntegerList>(value);
            spec.parallel.ranks = ranks.size() == 2 ? std::array<int, 3>{ranks[0], 1, ranks[1]}
                                                    : std::array<int, 3>{ranks[0], ranks[1], ranks[2]};
          },
          [](const RunSpec& spec) {
            const auto& [px, py, pz] = spec.parallel.ranks;
            return ConfigValue{spec.grid.ny == 1 && py <= 1 ? IntegerList{px, pz} : IntegerList{px, py, pz}};
          }};
}

/// A list key of perturbation.* (`field` picks the list): its value is the given one, else
/// the case's own (`of_bump` of case_bump), else (a case without a bump) empty; listed where given.
template <class Field, class OfBump>
ConfigKey bump_list_key(std::string_view path, Range range, Infinity infinity, std::string_view doc, Field field,
                        OfBump of_bump) {
  return {path,
          ValueType::real_list,
          "m",
          range.minimum,
          range.maximum,
          {},
          doc,
          [field](RunSpec& spec, const ConfigValue& value) { field(spec) = std::get<RealList>(value); },
          [field, of_bump](const RunSpec& spec) {
            if (!field(spec).empty() || !has_bump(spec.case_name)) return ConfigValue{field(spec)};
            return ConfigValue{of_bump(case_bump(spec.case_name, spec.grid.xlen))};
          },
          [field](const RunSpec& spec) { return !field(spec).empty(); },
          infinity};
}

/// perturbation.amplitude: the given one, else the case's own (0 for a case without a bump);
/// listed where given.
ConfigKey amplitude_key(std::string_view doc) {
  return {
      "perturbation.amplitude",
      ValueType::real,
      "K",
      std::nullopt,
      std::nullopt,
      {},
      doc,
      [](RunSpec& spec, const ConfigValue& value) { spec.perturbation.amplitude = std::get<double>(value); },
      [](const RunSpec& spec) {
        return ConfigValue{spec.perturbation.amplitude.value_or(case_bump(spec.case_name, spec.grid.xlen).amplitude)};
      },
      [](const RunSpec& spec) { return spec.perturbation.amplitude.has_value(); }};
}

std::vector<std::string_view> timed_mode_names() {
  std::vector<std::string_view> names;
  for (const ExecutionMode mode : timed_modes) names.push_back(to_string(mode));
  return names;
}

std::vector<std::string_view> snapshot_field_names() {
  std::vector<std::string_view> names;
  for (const FieldInfo& field : snapshot_fields()) names.push_back(field.name);
  return names;
}

}  // namespace

const std::vector<ConfigKey>& config_keys() {
  static const std::vector<ConfigKey> keys{
      enum_key(
          "case", "initial state: one of the model's test cases", case_names,
          [](auto& spec) -> auto& { return spec.case_name; }),
      value_key(
          "grid.nx", "", between(4, max_cells_per_direction), "cells in x",
          [](auto& spec) -> auto& { return spec.grid.nx; }),
      listed_when(value_key(
                      "grid.ny", "", between(1, max_cells_per_direction),
                      "cells in y: 1 is the 2-D (x-z) model, more the 3-D one",
                      [](auto& spec) -> auto& { return spec.grid.ny; }),
                  [](const RunSpec& spec) { return spec.grid.ny != 1; }),
      value_key(
          "grid.nz", "", between(4, max_cells_per_direction), "cells in z",
          [](auto& spec) -> auto& { return spec.grid.nz; }),
      value_key(
          "grid.xlen", "m", above(0), "domain width", [](auto& spec) -> auto& { return spec.grid.xlen; }),
      listed_when(value_key(
                      "grid.ylen", "m", above(0), "domain depth (3-D model); not given: grid.xlen",
                      [](auto& spec) -> auto& { return spec.grid.ylen; }),
                  [](const RunSpec& spec) { return spec.grid.ny != 1 || spec.grid.ylen != spec.grid.xlen; }),
      value_key(
          "grid.zlen", "m", above(0), "domain height", [](auto& spec) -> auto& { return spec.grid.zlen; }),
      bump_list_key(
          "perturbation.center", any_value, Infinity::refused,
          "centre of the case's bump, [x, z] ([x, y, z] in the 3-D model); not given: the case's",
          [](auto& spec) -> auto& { return spec.perturbation.center; },
          [](const Bump<2>& bump) {
            return RealList{bump.x0, bump.z0};
          }),
      bump_list_key(
          "perturbation.radii", above(0), Infinity::allowed,
          "radii of the case's bump, [x_r, z_r]; .inf: uniform along that axis; not given: the case's",
          [](auto& spec) -> auto& { return spec.perturbation.radii; },
          [](const Bump<2>& bump) {
            return RealList{bump.xr, bump.zr};
          }),
      amplitude_key("amplitude of the case's bump: θ′ (straka: T′; gravity_waves: the source, m s⁻²); not given: the "
                    "case's"),
      value_key(
          "time.sim_time", "s", above(0), "simulated time", [](auto& spec) -> auto& { return spec.time.sim_time; }),
      value_key(
          "time.cfl", "", above(0), "Courant number: dt = cfl · min(dx, (dy,) dz) / 450 m/s",
          [](auto& spec) -> auto& { return spec.time.cfl; }),
      date_time_key(
          "time.start", "the date and time of t = 0 (ISO 8601, UTC): the files' time is in seconds since it (CF time)",
          [](auto& spec) -> auto& { return spec.time.start; }),
      value_key(
          "physics.viscosity", "m² s⁻¹", at_least(0),
          "ν of the physical diffusion ν∇² of the velocities; 0: none (dt then also respects 0.25 min(dx, dz)² / ν)",
          [](auto& spec) -> auto& { return spec.physics.viscosity; }),
      listed_when(value_key(
                      "physics.diffusivity", "m² s⁻¹", at_least(0),
                      "κ of the physical diffusion κ∇² of θ and the tracers; not given: physics.viscosity; 0: none "
                      "(dt then also respects 0.25 min(dx, dz)² / κ)",
                      [](auto& spec) -> auto& { return spec.physics.diffusivity; }),
                  [](const RunSpec& spec) { return spec.physics.diffusivity != spec.physics.viscosity; }),
      listed_when(enum_key(
                      "physics.diffusion_reference",
                      "what θ's vertical diffusion acts on the departure from: the background θ̄(z), or the "
                      "initial state's θ (HOMME's DCMIP2016 supercell: the initial bubble does not diffuse "
                      "along z; needs whole columns on a rank)",
                      diffusion_reference_names, [](auto& spec) -> auto& { return spec.physics.reference; }),
                  [](const RunSpec& spec) { return spec.physics.reference != DiffusionReference::background; }),
      value_key(
          "physics.hyperviscosity", "", at_least(0),
          "β of the fourth-order hyperviscosity that keeps the scheme stable; 0: none",
          [](auto& spec) -> auto& { return spec.physics.hyperviscosity; }),
      listed_when(name_list_key(
                      "physics.tracers",
                      "passive tracers, each a name (letters, digits, _), advected with the flow; none: none", {},
                      [](auto& spec) -> auto& { return spec.grid.tracers; }),
                  has_tracers),
      listed_when(enum_key(
                      "physics.tracer_init",
                      "what each tracer starts as: mixing ratio 1 inside the case's bump and 0 outside, or 1 "
                      "everywhere",
                      tracer_init_names, [](auto& spec) -> auto& { return spec.grid.tracer_init; }),
                  has_tracers),
      enum_key(
          "physics.microphysics",
          "kessler: water vapour, cloud and rain (tracers qv, qc, qr, before physics.tracers) with warm-rain "
          "microphysics after the steps; none: a dry atmosphere",
          microphysics_names, [](auto& spec) -> auto& { return spec.grid.microphysics; }),
      listed_when(enum_key(
                      "physics.rain", "off: the saturation adjustment alone (no rain: reversible, non-precipitating)",
                      rain_names, [](auto& spec) -> auto& { return spec.moisture.rain; }),
                  has_water),
      listed_when(value_key(
                      "physics.microphysics_every", "steps", at_least(1),
                      "the microphysics runs after each multiple of this many steps and after the last, over the "
                      "time since its last run",
                      [](auto& spec) -> auto& { return spec.moisture.every; }),
                  has_water),
      listed_when(value_key(
                      "background.sounding", "", any_value,
                      "a sounding file in WRF's input_sounding format (surface p in hPa, θ, q_v in g/kg; then z, θ, "
                      "q_v, u, v a line) to integrate the background from instead of the case's; relative to the "
                      "configuration file (to the working directory when given with --set)",
                      [](auto& spec) -> auto& { return spec.background.sounding_file; }),
                  [](const RunSpec& spec) { return !spec.background.sounding_file.empty(); }),
      value_key(
          "output.dir", "", any_value, "directory for results", [](auto& spec) -> auto& { return spec.output.dir; }),
      value_key(
          "output.every", "s", at_least(0), "interval between snapshots; 0: no snapshots",
          [](auto& spec) -> auto& { return spec.output.every; }),
      enum_key(
          "output.layout",
          "per_time: a file fields_<step>.nc per output time, indexed by fields.xmf; series: every output time in one "
          "netCDF-4 file fields.nc along its unlimited time dimension, a new version of it renamed into place at each "
          "output",
          output_layout_names, [](auto& spec) -> auto& { return spec.output.layout; }),
      name_list_key(
          "output.variables",
          "snapshot variables (fields, and the background profiles *_bar; the tracers' mixing ratios, by their "
          "names), comma-separated or a YAML list, each once; or all",
          snapshot_field_names(), [](auto& spec) -> auto& { return spec.output.variables; }),
      value_key(
          "output.compression", "", between(0, 9), "deflate level 1..9 of snapshot datasets; 0: none",
          [](auto& spec) -> auto& { return spec.output.compression; }),
      value_key(
          "output.checkpoint_every", "s", at_least(0),
          "interval between checkpoints (full state for --restart); 0: none",
          [](auto& spec) -> auto& { return spec.output.checkpoint_every; }),
      listed_when(value_key(
                      "output.stats_every", "s", at_least(0),
                      "interval between the rows of stats.nc, the statistics of the flow over time; not given: "
                      "output.every; 0: none",
                      [](auto& spec) -> auto& { return spec.output.stats_every; }),
                  [](const RunSpec& spec) { return spec.output.stats_every != spec.output.every; }),
      value_key(
          "output.progress_every", "steps", at_least(0),
          "steps between progress lines; 0: a line about every 2 s of wall time",
          [](auto& spec) -> auto& { return spec.output.progress_every; }),
      enum_key(
          "execution.backend", "processor that runs the kernels; auto: CUDA when a GPU is visible, else host",
          backend_choices, [](auto& spec) -> auto& { return spec.execution.backend; }),
      enum_key(
          "execution.mode",
          "eager_sync, eager (one launch per kernel), eager_streams (eager, each lane on a stream of its own; CUDA), "
          "graph (captured segments replayed), graph_loop (one launch of a graph with a WHILE node runs the steps "
          "up to the next output, or half a second's worth; CUDA), persistent (one cooperative kernel runs as many, "
          "grid barriers between passes or stages; CUDA, one rank, granularity stage or pass), persistent_cluster "
          "(the persistent kernel on one thread-block cluster, cluster barriers between passes; CUDA with clusters, "
          "one rank, granularity stage or pass, the pass tiles' sides and tracers, the state within the L2 cache), "
          "compare (those of execution.compare, timed) or auto (the fastest the run can use, chosen at set-up and "
          "named in the header, --plan and --validate: on CUDA with one rank, without water, persistent_cluster in "
          "float32 up to 2048 cells, persistent up to 8192, else graph; graph on the host backend or several ranks)",
          execution_mode_names, [](auto& spec) -> auto& { return spec.execution.mode; }),
      enum_key(
          "execution.granularity",
          "auto: the fastest the run can use on its backend, chosen at set-up and named in the header, --plan and "
          "--validate: pass on CUDA where a step runs pass kernels (two or more passes), else stage; stage on the "
          "host backend; fine: one kernel per operation per variable; fused: a few kernels per stage; stage: one "
          "kernel per stage; pass: one kernel per split pass (its three stages in shared memory) where the rank holds "
          "the pass's whole line and its sides are periodic or walls, else one per stage; same results bit for bit",
          granularity_names, [](auto& spec) -> auto& { return spec.execution.granularity; }),
      enum_key(
          "execution.precision",
          "float64 or float32: the type of the state, its fluxes and the tiles (time, dt, the background, the "
          "microphysics and the global sums stay double); snapshots and checkpoints are written in it",
          precision_names, [](auto& spec) -> auto& { return spec.execution.precision; }),
      value_key(
          "execution.steps_per_graph", "steps", between(0, max_steps_per_graph),
          "steps captured into one graph; 0: chosen so a graph holds a few hundred kernels",
          [](auto& spec) -> auto& { return spec.execution.steps_per_graph; }),
      value_key(
          "execution.check_every", "steps", at_least(0),
          "steps between health checks on the device (non-finite values, signal speed above 450 m/s); "
          "0: none",
          [](auto& spec) -> auto& { return spec.execution.check_every; }),
      value_key(
          "execution.wall_limit", "s", at_least(0),
          "wall-clock time the run may take, from its start (seconds, or H:MM:SS); before it, leaving the measured "
          "time a checkpoint takes, the run writes one and stops with exit code 5; 0: none",
          [](auto& spec) -> auto& { return spec.execution.wall_limit; }),
      value_key(
          "execution.repeats", "rounds", between(1, 1000),
          "compare: rounds of timed runs, each timing every mode once, in turn; medians and ranges over them",
          [](auto& spec) -> auto& { return spec.execution.repeats; }),
      value_key(
          "execution.max_noise", "", between(0, 1),
          "compare: after execution.repeats, more rounds until every mode's median is known to this fraction "
          "(half its 95 % interval over it); 0: no more",
          [](auto& spec) -> auto& { return spec.execution.max_noise; }),
      value_key(
          "execution.max_noise_time", "s", above(0),
          "compare: the most wall-clock time the rounds for execution.max_noise may take",
          [](auto& spec) -> auto& { return spec.execution.max_noise_time; }),
      enum_list_key(
          "execution.compare",
          "modes that compare times, comma-separated or a YAML list, each once; or all (those the case cannot run are "
          "skipped, with the reason)",
          timed_mode_names(), execution_mode_names, [](auto& spec) -> auto& { return spec.execution.compare; }),
      ranks_key("MPI ranks along x and z, [px, pz], or x, y and z, [px, py, pz]; 0: chosen by MPI_Dims_create"),
      enum_key(
          "parallel.halo",
          "what carries halo messages: mpi (a host op between graphs) or nccl (on the stream, inside graphs)",
          halo_transport_names, [](auto& spec) -> auto& { return spec.parallel.halo; }),
      enum_key(
          "parallel.cuda_aware_mpi",
          "pass device buffers to MPI directly: auto (when the library reports CUDA support), on, off",
          cuda_aware_mpi_names, [](auto& spec) -> auto& { return spec.parallel.cuda_aware_mpi; }),
      enum_key(
          "parallel.overlap", "compute interior cells while halos travel (fused and stage granularity, MPI halos)",
          halo_overlap_names, [](auto& spec) -> auto& { return spec.parallel.overlap; }),
  };
  return keys;
}

const ConfigKey* find_config_key(std::string_view path) {
  const auto& keys = config_keys();
  const auto found = std::ranges::find(keys, path, &ConfigKey::path);
  return found == keys.end() ? nullptr : &*found;
}

}  // namespace simapp::io
