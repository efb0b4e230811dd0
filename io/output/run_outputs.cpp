#include "io/output/run_outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include <fmt/core.h>

#include "foundation/error.hpp"
#include "io/checkpoint/checkpoint.hpp"
#include "io/files/new_file.hpp"
#include "io/hdf5/snapshot_series.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "io/output/output_directory.hpp"
#include "io/xdmf/xdmf_writer.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "simapp_version.hpp"
#include "solver/column/run_column.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/output/output_schedule.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/state/tracer_profiles.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

fs::path snapshot_path(const fs::path& directory, long step) {
  return directory / fmt::format("fields_{:06}.nc", step);
}

/// The name earlier versions of simapp gave the snapshot of `step`.
fs::path earlier_snapshot_path(const fs::path& directory, long step) {
  return directory / fmt::format("fields_{:06}.h5", step);
}

fs::path failed_snapshot_path(const fs::path& directory, long step) {
  return directory / fmt::format("fields_{:06}_failed.nc", step);
}

/// The snapshot series of output.layout: series.
fs::path series_path(const fs::path& directory) { return directory / "fields.nc"; }

}  // namespace

/// The fields a snapshot file of a run on `grid` holds: output.variables, then the mixing ratio
/// of each tracer it does not name, then with water (physics.microphysics) its fields: the moist
/// temperature T and the surface fields, precipitation_amount and rain_rate.
std::vector<std::string> snapshot_fields_of(std::vector<std::string> fields, const GridSpec& grid) {
  std::vector<std::string> added = state_tracers(grid);
  if (grid.microphysics != Microphysics::none) {
    for (const DerivedField& field : water_fields(state_variables(grid), water_tracers))
      added.push_back(field.description.name);
    for (const SurfaceField& field : surface_fields()) added.push_back(field.description.name);
  }
  for (const std::string& name : added)
    if (std::ranges::find(fields, name) == fields.end()) fields.push_back(name);
  return fields;
}

Snapshot whole_grid_snapshot(const LoadedConfig& config) {
  const GridSpec& grid = config.spec.grid;
  const int water = grid.microphysics != Microphysics::none ? water_tracers : 0;
  const Stream host{Backend::host, nullptr, nullptr};
  const CellGeometry<2> geometry{
      grid.xlen / grid.nx, grid.zlen / grid.nz, grid.xlen, grid.zlen, grid.nx, grid.nz, 0, 0};
  const std::optional<ColumnSource> column = run_column(config.spec);
  const std::optional<ColumnBackground> sounding =
      column ? std::optional(column_background(*column, geometry, grid.nz)) : std::nullopt;
  const HydrostaticProfile profile =
      sounding ? HydrostaticProfile(host, sounding->dry, grid.nz)
               : HydrostaticProfile(host, case_background(config.spec.case_name), geometry, grid.nz);
  const HydrostaticColumns columns = profile.to_host(host);
  const auto interior = [&](const std::vector<double>& padded) {
    return std::vector<double>(padded.begin() + numerics::halo_width, padded.end() - numerics::halo_width);
  };
  const StateVariables variables = state_variables(grid);
  const int tracers = variables.size() - variables.first_tracer();
  const TracerProfiles tracer_profiles(host, grid, grid.nz, profile.view(), sounding ? &sounding->water : nullptr);
  std::vector<double> tracer_background;  // [k][t]
  for (int k = 0; k < grid.nz; ++k)
    for (int t = 0; t < tracers; ++t) tracer_background.push_back(tracer_profiles.view().cell_value(t, k));
  return {0,
          0.0,
          grid.nx,
          grid.nz,
          grid.xlen / grid.nx,
          grid.zlen / grid.nz,
          std::string(to_string(config.spec.case_name)),
          config.resolved_yaml,
          build_info::version,
          build_info::git_hash,
          {},
          interior(columns.density_cell),
          interior(columns.rho_theta_cell),
          grid.ny,
          grid.ny > 1 ? grid.ylen / grid.ny : 0.0,
          config.spec.time.start,
          tracer_fields(variables, water),
          grid.microphysics,
          water_fields(variables, water),
          {},
          std::move(tracer_background),
          config.spec.execution.precision};
}

namespace {

/// Writes snapshot files of the run's state. Uncompressed snapshots are written by every
/// rank, each its own block; compressed ones by rank 0 from the gathered grid.
class SnapshotFiles {
 public:
  SnapshotFiles(const LoadedConfig& config, const Simulation& simulation)
      : config_(config),
        simulation_(simulation),
        decomposition_(simulation.decomposition()),
        fields_(snapshot_fields_of(config.spec.output.variables, config.spec.grid)),
        whole_grid_(whole_grid_snapshot(config)) {}

  /// Starts the snapshot of this rank's interior state at `step` to `path` (collective), with
  /// the surface fields copied with it (Simulation::copied_surface) gathered to rank 0: an
  /// uncompressed one is left writing on a thread (`interior` must stay unchanged until it is
  /// finished); a compressed one is gathered and written at once, and nullptr returned.
  std::unique_ptr<io::SnapshotWrite> start(const fs::path& path, long step, double time,
                                           std::span<const double> interior) const {
    const MPI_Comm comm = decomposition_.comm();
    Snapshot snapshot = whole_grid_;
    snapshot.step = step;
    snapshot.time = time;
    if (snapshot.microphysics != Microphysics::none)
      snapshot.surface = gather_surface(decomposition_, simulation_.copied_surface(), surface_water_fields);
    if (config_.spec.output.compression == 0) {
      const RankBox box = decomposition_.box();
      const auto rows = [&](const std::vector<double>& column) {
        return std::span<const double>(column).subspan(static_cast<std::size_t>(box.k_offset),
                                                       static_cast<std::size_t>(box.nz));
      };
      const io::SnapshotBlock block{
          box.nx,
          box.nz,
          box.i_offset,
          box.k_offset,
          interior,
          rows(whole_grid_.density_cell),
          rows(whole_grid_.rho_theta_cell),
          box.ny,
          box.j_offset,
          whole_grid_.tracer_fields,
          whole_grid_.water_fields,
          std::span<const double>(whole_grid_.tracer_background_cell)
              .subspan(static_cast<std::size_t>(box.k_offset) * whole_grid_.tracer_fields.size(),
                       static_cast<std::size_t>(box.nz) * whole_grid_.tracer_fields.size())};
      return std::make_unique<io::SnapshotWrite>(path, snapshot, block, fields_, comm);
    }
    snapshot.state = gather_interior(decomposition_, interior);
    run_on_root_agreed(comm, [&] { io::write_snapshot(path, snapshot, fields_, config_.spec.output.compression); });
    return nullptr;
  }

  /// Writes the snapshot of this rank's interior state at `step` to `path` (collective).
  void write(const fs::path& path, long step, double time, std::span<const double> interior) const {
    if (const auto started = start(path, step, time, interior)) started->finish();
  }

  const std::vector<std::string>& fields() const { return fields_; }

 private:
  const LoadedConfig& config_;
  const Simulation& simulation_;
  const Decomposition& decomposition_;
  std::vector<std::string> fields_;
  Snapshot whole_grid_;  ///< the grid, texts and background rows of every snapshot
};

/// "wrote <path> (t = <time> s)".
std::string written_line(const fs::path& path, double time) {
  return fmt::format("wrote {} (t = {:.6g} s)", path.string(), time);
}

/// Writes a snapshot at each due step and rewrites fields.xmf to index every one so far.
class SnapshotSeries {
 public:
  SnapshotSeries(const LoadedConfig& config, const Simulation& simulation, WrittenNote written)
      : config_(config),
        files_(config, simulation),
        directory_(config.spec.output.dir),
        comm_(simulation.decomposition().comm()),
        written_(std::move(written)) {
    // A restarted run keeps the snapshots up to its checkpoint in the index, which is written
    // again at once (the snapshots after it were replaced), under the names they have (those
    // of an earlier simapp's run end in .h5).
    if (simulation.step() > 0) index_snapshots_up_to(simulation.step(), simulation.time_stepping());
    if (!entries_.empty()) write_index();
  }

  /// Starts the snapshot at `step` (collective), and publishes the one before it (whose sync
  /// ran meanwhile); the new one is published, and indexed, by the next write or finish().
  void write(long step, double time, std::span<const double> interior) {
    const fs::path path = snapshot_path(directory_, step);
    std::unique_ptr<io::SnapshotWrite> started;
    try {
      started = files_.start(path, step, time, interior);
    } catch (const Error& error) {
      // A failure every rank met leaves them all here: the snapshot before, written meanwhile,
      // is still published where it can be; the failure reported is this one.
      if (error.reach() == ErrorReach::every_rank) {
        try {
          finish();
        } catch (const Error& also) {
          if (also.reach() != ErrorReach::every_rank) throw;
        }
      }
      throw;
    }
    const ThreadedWriteTimes previous = finish();
    in_flight_ = std::move(started);
    in_flight_entry_ = {path.filename().string(), time};
    times_ = previous;
    if (!in_flight_) publish_entry();
  }

  /// Waits until the snapshot being written no longer reads the state it was given (this rank).
  double release() { return in_flight_ ? in_flight_->release_block() : 0.0; }

  /// Publishes the snapshot still being written, if any, and indexes it (collective); returns
  /// the writer threads' times not yet reported.
  ThreadedWriteTimes finish() {
    ThreadedWriteTimes times = std::exchange(times_, {});
    if (!in_flight_) return times;
    in_flight_->finish();
    times.thread_seconds += in_flight_->thread_seconds();
    times.waited_seconds += in_flight_->waited_seconds();
    in_flight_.reset();
    publish_entry();
    return times;
  }

 private:
  void write_index() const {
    const GridSpec& grid = config_.spec.grid;
    run_on_root_agreed(comm_, [&] {
      io::write_xdmf(
          directory_ / "fields.xmf",
          {grid.nx, grid.nz, grid.xlen / grid.nx, grid.zlen / grid.nz, grid.ny, grid.ny > 1 ? grid.ylen / grid.ny : 0.0,
           static_cast<int>(value_bytes(config_.spec.execution.precision))},
          io::grid_fields(files_.fields()), entries_);
    });
  }

  void publish_entry() {
    entries_.push_back(in_flight_entry_);
    write_index();
    if (written_) written_(written_line(directory_ / in_flight_entry_.file, in_flight_entry_.time));
  }

  const LoadedConfig& config_;
  SnapshotFiles files_;
  fs::path directory_;
  MPI_Comm comm_;
  WrittenNote written_;
  std::vector<io::XdmfEntry> entries_;            ///< the published snapshots
  std::unique_ptr<io::SnapshotWrite> in_flight_;  ///< the snapshot being written, if any

  /// Indexes the snapshots of the schedule in the directory, up to `last`, by step.
  void index_snapshots_up_to(long last, const TimeStepping& time_stepping) {
    const OutputSchedule steps(time_stepping, config_.spec.output.every, true);
    std::vector<io::ResultEntry> found = io::result_entries(directory_);
    std::erase_if(found, [&](const io::ResultEntry& entry) {
      return entry.kind != io::ResultKind::snapshot || entry.step > last || !steps.holds(entry.step) ||
             (entry.path != snapshot_path(directory_, entry.step) &&
              entry.path != earlier_snapshot_path(directory_, entry.step));
    });
    std::ranges::sort(found, {}, &io::ResultEntry::step);
    for (const io::ResultEntry& entry : found)
      entries_.push_back({entry.path.filename().string(), time_stepping.time_after(entry.step)});
  }
  io::XdmfEntry in_flight_entry_;
  ThreadedWriteTimes times_;  ///< of snapshots published by write(), not yet reported
};

/// output.layout: series. Appends the snapshot of each due step to fields.nc: the grid gathered
/// to rank 0, which writes it at once. A restarted run continues the file, keeping the times up
/// to its checkpoint's step.
class AppendedSnapshots {
 public:
  AppendedSnapshots(const LoadedConfig& config, const Simulation& simulation, WrittenNote written)
      : simulation_(simulation),
        decomposition_(simulation.decomposition()),
        whole_grid_(whole_grid_snapshot(config)),
        written_(std::move(written)) {
    const OutputSpec& output = config.spec.output;
    const std::optional<long> kept_step = simulation.step() > 0 ? std::optional(simulation.step()) : std::nullopt;
    directory_ = output.dir;
    run_on_root_agreed(decomposition_.comm(), [&] {
      file_.emplace(series_path(directory_), snapshot_fields_of(output.variables, config.spec.grid), output.compression,
                    kept_step, whole_grid_.tracer_fields, whole_grid_.water_fields);
    });
  }

  /// Appends the snapshot of this rank's interior state at `step` (collective).
  void write(long step, double time, std::span<const double> interior) {
    Snapshot snapshot = whole_grid_;
    snapshot.step = step;
    snapshot.time = time;
    snapshot.state = gather_interior(decomposition_, interior);
    if (snapshot.microphysics != Microphysics::none)
      snapshot.surface = gather_surface(decomposition_, simulation_.copied_surface(), surface_water_fields);
    run_on_root_agreed(decomposition_.comm(), [&] { file_->append(snapshot); });
    if (written_ && file_)
      written_(fmt::format("appended t = {:.6g} s to {} ({} times)", time, series_path(directory_).string(),
                           file_->times()));
  }

 private:
  const Simulation& simulation_;
  const Decomposition& decomposition_;
  Snapshot whole_grid_;  ///< the grid, texts and background rows of every snapshot
  WrittenNote written_;
  fs::path directory_;
  std::optional<io::SnapshotSeriesFile> file_;  ///< rank 0's
};

/// The longest file name the run writes: its last checkpoint's.
std::string longest_result_name(const TimeStepping& time_stepping) {
  return io::checkpoint_path(".", time_stepping.num_steps()).filename().string();
}

/// The checkpoint `which` names ("latest": the newest in `directory`, if any).
std::optional<fs::path> checkpoint_named(const std::string& which, const fs::path& directory) {
  if (which == "latest") return io::latest_checkpoint(directory);
  return fs::path(which);
}

/// Whether a result is one a run writes after `step`, by name: its series, its statistics, or a
/// snapshot or checkpoint of its schedules as it spells their names.
using WrittenAfter = std::function<bool(const io::ResultEntry&)>;
WrittenAfter written_after(long step, const RunSpec& spec, const TimeStepping& time_stepping) {
  const bool series = spec.output.every > 0.0 && spec.output.layout == OutputLayout::series;
  const OutputSchedule snapshots = spec.output.every > 0.0 && !series
                                       ? OutputSchedule(time_stepping, spec.output.every, true).after(step)
                                       : OutputSchedule();
  const OutputSchedule checkpoints = OutputSchedule(time_stepping, spec.output.checkpoint_every, false).after(step);
  const bool statistics = spec.output.stats_every > 0.0;
  return [series, statistics, snapshots, checkpoints](const io::ResultEntry& entry) {
    const fs::path name = entry.path.filename();
    switch (entry.kind) {
      case io::ResultKind::snapshot_series: return series;
      case io::ResultKind::statistics: return statistics;
      case io::ResultKind::snapshot:
        return snapshots.holds(entry.step) && name == snapshot_path(".", entry.step).filename();
      case io::ResultKind::checkpoint:
        return checkpoints.holds(entry.step) && name == io::checkpoint_path(".", entry.step).filename();
      default: return false;
    }
  };
}

/// The results in `directory` that a run starting as `start` replaces: with --overwrite all
/// of them, which must all be simapp's; on a restart the snapshots and checkpoints simapp wrote
/// after its step (a snapshot series and the statistics file are continued, and lose those
/// times, when the restart has a checkpoint; replaced when it starts over), refusing a file of
/// another kind under a name the run writes.
std::vector<ResultEntry> replaced_results(const fs::path& directory, ExistingResults policy, const OutputStart& start,
                                          const WrittenAfter& written) {
  const std::vector<ResultEntry> earlier = io::result_entries(directory);
  if (policy == ExistingResults::refuse && !earlier.empty())
    throw Error(
        ExitCode::bad_input, "output.dir",
        fmt::format("'{}' holds results of an earlier run ({}{}); pass --overwrite to replace them or "
                    "--restart latest to continue it",
                    directory.string(), earlier.front().path.filename().string(), earlier.size() > 1 ? ", ..." : ""));
  if (policy == ExistingResults::replace) {
    io::require_written_by_simapp(earlier);
    io::require_removable(earlier);
    return earlier;
  }
  std::vector<ResultEntry> replaced, in_the_way, replaced_later;
  for (const ResultEntry& entry : earlier) {
    // The index is rewritten and the checkpoints give way to newer ones as the run goes on.
    if ((entry.kind == io::ResultKind::xdmf_index || entry.kind == io::ResultKind::checkpoint) &&
        io::written_by_simapp(entry))
      replaced_later.push_back(entry);
    const bool numbered = entry.kind == io::ResultKind::snapshot || entry.kind == io::ResultKind::checkpoint;
    const bool series = entry.kind == io::ResultKind::snapshot_series || entry.kind == io::ResultKind::statistics;
    if (series && start.checkpoint && io::written_by_simapp(entry)) continue;
    if (!series && (!numbered || entry.step < 0 || (start.checkpoint && entry.step <= start.step))) continue;
    if (io::written_by_simapp(entry))
      replaced.push_back(entry);
    else if (written(entry))
      in_the_way.push_back(entry);
  }
  io::require_written_by_simapp(in_the_way);
  io::require_removable(replaced);
  io::require_removable(replaced_later);
  return replaced;
}

/// Writes the checkpoint of `interior`, this rank's block, at `step` (collective), with the surface
/// fields copied with it (Simulation::copied_surface, in a run with water), after what must reach
/// the disk before it.
void write_checkpoint_of(const LoadedConfig& config, const Simulation& simulation, const Diagnostics& reference,
                         const OutputHooks& hooks, long step, double time, std::span<const double> interior) {
  if (hooks.before_checkpoint) hooks.before_checkpoint();
  const GridSpec& grid = config.spec.grid;
  const Decomposition& decomposition = simulation.decomposition();
  const std::vector<double> surface =
      grid.microphysics != Microphysics::none
          ? gather_surface(decomposition, simulation.copied_surface(), surface_water_fields)
          : std::vector<double>();
  io::write_checkpoint(
      config.spec.output.dir,
      {step, time, io::physics_hash(config.spec), grid.nx, grid.nz, reference.mass, reference.total_energy,
       std::string(to_string(config.spec.case_name)), grid.xlen, grid.zlen, config.spec.physics, config.spec.time.cfl,
       grid.ny, grid.ny > 1 ? grid.ylen : 0.0, io::configured_perturbation(config.spec), state_tracers(grid),
       grid.tracer_init, reference.tracer_mass, config.spec.execution.precision},
      decomposition.box(), interior, config.resolved_yaml, decomposition.comm(), surface);
  if (hooks.written) hooks.written(written_line(io::checkpoint_path(config.spec.output.dir, step), time));
}

}  // namespace

TimeStepping run_time_stepping(const RunSpec& spec, TimeOrigin origin) {
  return TimeStepping(spec.time.sim_time, horizontal_spacing(spec.grid), spec.grid.zlen / spec.grid.nz, spec.time.cfl,
                      spec.physics.largest_coefficient(), origin);
}

bool writes_results(const RunSpec& spec) {
  return spec.output.every > 0.0 || spec.output.checkpoint_every > 0.0 || spec.output.stats_every > 0.0;
}

namespace {

/// The checkpoint a restart continues from ("latest": the newest in output.dir), found and
/// checked on rank 0, known to every rank; none for a fresh run, or when there is no checkpoint.
struct RestartPoint {
  std::optional<fs::path> checkpoint;
  long step = 0;
  TimeOrigin origin;
  bool finished = false;  ///< the checkpoint is the run's last step
};

/// Collective; errors are bad input, agreed.
RestartPoint restart_point(const RunSpec& spec, const std::string& restart, MPI_Comm comm) {
  RestartPoint point;
  run_on_root_agreed(comm, [&] {
    if (restart.empty()) return;
    point.checkpoint = checkpoint_named(restart, spec.output.dir);
    if (!point.checkpoint) return;
    const TimeStepping step_grid = run_time_stepping(spec);
    const io::CheckpointHeader header = io::read_checkpoint_header(*point.checkpoint);
    io::check_restart_compatible(*point.checkpoint, header, spec, step_grid);
    point.step = header.step;
    point.origin = io::restart_origin(header, step_grid);
    point.finished = point.step == run_time_stepping(spec, point.origin).num_steps();
  });
  const std::string checkpoint = broadcast_text(point.checkpoint ? point.checkpoint->string() : "", 0, comm);
  if (!checkpoint.empty()) point.checkpoint = fs::path(checkpoint);
  MPI_Bcast(&point.step, 1, MPI_LONG, 0, comm);
  MPI_Bcast(&point.origin.step, 1, MPI_LONG, 0, comm);
  MPI_Bcast(&point.origin.time, 1, MPI_DOUBLE, 0, comm);
  int finished = point.finished ? 1 : 0;
  MPI_Bcast(&finished, 1, MPI_INT, 0, comm);
  point.finished = finished != 0;
  return point;
}

/// How a plan makes sure output.dir takes the run's files: by making it and a file of the
/// longest name there (a run), or by looking only (--validate).
enum class DirectoryProbe { make, look };

/// plan_output, its directory probed as `probe` says.
OutputStart planned_start(const RunSpec& spec, ExistingResults policy, const std::string& restart, MPI_Comm comm,
                          DirectoryProbe probe) {
  const RestartPoint point = restart_point(spec, restart, comm);
  OutputStart start{point.checkpoint, point.step, point.finished, {}, point.origin};
  if (!writes_results(spec) || start.finished) return start;
  run_on_root_agreed(comm, [&] {
    const fs::path directory(spec.output.dir);
    const TimeStepping time_stepping = run_time_stepping(spec, start.origin);
    try {
      if (probe == DirectoryProbe::make)
        io::probe_directory(directory, longest_result_name(time_stepping));
      else
        io::check_output_directory(directory, longest_result_name(time_stepping));
    } catch (const io::FileFailure& failure) {
      throw Error(ExitCode::bad_input, "output.dir",
                  fmt::format("cannot write to '{}': {}", directory.string(), failure.what()));
    }
    const long first_written = start.checkpoint ? start.step : -1;  // the step 0 snapshot too, from the start
    start.replaced = replaced_results(directory, policy, start, written_after(first_written, spec, time_stepping));
  });
  return start;
}

}  // namespace

OutputStart plan_output(const RunSpec& spec, ExistingResults policy, const std::string& restart, MPI_Comm comm) {
  return planned_start(spec, policy, restart, comm, DirectoryProbe::make);
}

void check_output_plan(const RunSpec& spec, ExistingResults policy, const std::string& restart, MPI_Comm comm) {
  // First what taking the directory over checks, as a run does before it plans.
  if (writes_results(spec))
    run_on_root_agreed(
        comm, [&] { io::check_output_directory(spec.output.dir, longest_result_name(run_time_stepping(spec))); });
  planned_start(spec, policy, restart, comm, DirectoryProbe::look);
}

std::string check_restart(const RunSpec& spec, const std::string& restart, const Decomposition& decomposition) {
  const RestartPoint point = restart_point(spec, restart, decomposition.comm());
  if (!point.checkpoint) return fmt::format("no checkpoint in '{}': a restart starts at step 0", spec.output.dir);
  run_agreed(decomposition.comm(), [&] {
    io::read_checkpoint_block(*point.checkpoint, decomposition.box());
    if (spec.grid.microphysics != Microphysics::none)
      io::read_checkpoint_surface(*point.checkpoint, decomposition.box());
  });
  if (point.finished)
    return fmt::format("{} is the run's last step ({}): a restart has nothing to do", point.checkpoint->string(),
                       point.step);
  return fmt::format("a restart continues from {} at step {} of {}", point.checkpoint->string(), point.step,
                     run_time_stepping(spec, point.origin).num_steps());
}

void take_over_output(const RunSpec& spec, const OutputStart& start, MPI_Comm comm) {
  if (!writes_results(spec)) return;
  run_on_root_agreed(comm, [&] {
    io::remove_results(start.replaced);
    try {
      io::clear_unfinished(spec.output.dir);
    } catch (const io::FileFailure& failure) {
      throw Error(ExitCode::bad_input, "output.dir", failure.what());
    }
  });
}

Diagnostics restore_checkpoint(Simulation& simulation, const OutputStart& start) {
  Diagnostics reference;
  std::vector<double> block, surface;
  const bool water = simulation.spec().grid.microphysics != Microphysics::none;
  run_agreed(simulation.decomposition().comm(), [&] {
    const io::CheckpointHeader header = io::read_checkpoint_header(*start.checkpoint);
    reference = {header.initial_mass, header.initial_total_energy, header.initial_tracer_mass};
    if (water)  // t = 0: nothing on the ground or clipped yet
      reference.water = WaterTotals{water_of(header.initial_tracer_mass, 0.0), 0.0};
    block = io::read_checkpoint_block(*start.checkpoint, simulation.decomposition().box());
    if (water) surface = io::read_checkpoint_surface(*start.checkpoint, simulation.decomposition().box());
  });
  simulation.restore(start.step, block, surface);
  return reference;
}

std::vector<ScheduledOutput> make_outputs(const LoadedConfig& config, const Simulation& simulation,
                                          const Diagnostics& reference, const OutputHooks& hooks) {
  const RunSpec& spec = config.spec;
  std::vector<ScheduledOutput> outputs;
  const long now = simulation.step();
  if (spec.output.every > 0.0) {
    // Snapshots of the steps after this one (and of step 0 from the start).
    OutputSchedule steps =
        OutputSchedule(simulation.time_stepping(), spec.output.every, true).after(now - (now == 0 ? 1 : 0));
    if (spec.output.layout == OutputLayout::series) {
      auto appended = std::make_shared<AppendedSnapshots>(config, simulation, hooks.written);
      outputs.push_back(
          {std::move(steps),
           [appended](long step, double time, std::span<const double> state) { appended->write(step, time, state); },
           nullptr, nullptr});
    } else {
      auto series = std::make_shared<SnapshotSeries>(config, simulation, hooks.written);
      outputs.push_back(
          {std::move(steps),
           [series](long step, double time, std::span<const double> state) { series->write(step, time, state); },
           [series] { return series->finish(); }, [series] { return series->release(); }});
    }
  }
  if (spec.output.checkpoint_every > 0.0) {
    outputs.push_back(
        {OutputSchedule(simulation.time_stepping(), spec.output.checkpoint_every, false).after(now),
         [&config, &simulation, reference, hooks](long step, double time, std::span<const double> interior) {
           write_checkpoint_of(config, simulation, reference, hooks, step, time, interior);
         },
         nullptr, nullptr, /*checkpoint=*/true});
  }
  return outputs;
}

FailedStateWriter failed_state_writer(const LoadedConfig& config, const Simulation& simulation) {
  if (!writes_results(config.spec)) return nullptr;
  return [&config, &simulation](long step, double time, std::span<const double> interior) {
    const fs::path path = failed_snapshot_path(config.spec.output.dir, step);
    SnapshotFiles(config, simulation).write(path, step, time, interior);  // made only when a run fails
    return path.string();
  };
}

std::function<void(long, double, std::span<const double>)> checkpoint_saver(const LoadedConfig& config,
                                                                            const Simulation& simulation,
                                                                            const Diagnostics& reference,
                                                                            const OutputHooks& hooks) {
  const Decomposition& decomposition = simulation.decomposition();
  return [&config, &simulation, &decomposition, reference, hooks](long step, double time,
                                                                  std::span<const double> interior) {
    if (hooks.before_checkpoint) hooks.before_checkpoint();  // also where the checkpoint is there already
    int written = 0;
    if (decomposition.rank() == 0) written = fs::exists(io::checkpoint_path(config.spec.output.dir, step)) ? 1 : 0;
    MPI_Bcast(&written, 1, MPI_INT, 0, decomposition.comm());
    if (written == 0) write_checkpoint_of(config, simulation, reference, hooks, step, time, interior);
  };
}

}  // namespace simapp::io
