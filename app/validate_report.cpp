#include "app/validate_report.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/core.h>

#include "app/courant_warning.hpp"
#include "app/run_report.hpp"
#include "foundation/printable_text.hpp"
#include "io/config/load_config.hpp"
#include "io/files/result_file.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "io/output/output_directory.hpp"
#include "io/output/run_outputs.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/grid/state_variables.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/output/output_schedule.hpp"

namespace simapp::app {

namespace fs = std::filesystem;

namespace {

constexpr double bytes_per_value = sizeof(double);

/// `bytes` in decimal units, three digits: 512 B, 25.6 kB, 3.07 GB.
std::string bytes_text(double bytes) {
  constexpr const char* units[] = {"kB", "MB", "GB", "TB", "PB"};
  if (bytes < 1e3) return fmt::format("{:.0f} B", bytes);
  int unit = 0;
  for (bytes /= 1e3; bytes >= 1e3 && unit < 4; bytes /= 1e3) ++unit;
  return fmt::format("{:.3g} {}", bytes, units[unit]);
}

/// The free space of the file system `directory` is on (or would be, created: its nearest
/// existing parent's), and that directory; none when it cannot be told.
std::optional<std::pair<double, fs::path>> free_space(const fs::path& directory) {
  std::error_code error;
  fs::path there = fs::absolute(directory, error).lexically_normal();
  if (error) return std::nullopt;
  while (!fs::exists(there, error) && there.has_relative_path()) there = there.parent_path();
  struct statvfs status {};
  if (::statvfs(there.c_str(), &status) != 0) return std::nullopt;
  return std::pair{static_cast<double>(status.f_bavail) * static_cast<double>(status.f_frsize), there};
}

std::string memory_line(const Setup& setup, const Decomposition& decomposition, const MemoryUse& memory) {
  const std::string kind = setup.backend == Backend::cuda ? "GPU" : "host";
  if (decomposition.size() == 1)
    return fmt::format("{} of the {} of {} memory available", bytes_text(memory.per_rank), bytes_text(memory.available),
                       kind);
  return fmt::format("{} a rank at most, {} in all; on rank 0's {} memory {}{} available", bytes_text(memory.per_rank),
                     bytes_text(memory.in_all), kind,
                     memory.sharing > 1 ? fmt::format("{} for the {} ranks sharing it, of ",
                                                      bytes_text(memory.per_rank * memory.sharing), memory.sharing)
                                        : fmt::format("{} of ", bytes_text(memory.per_rank)),
                     bytes_text(memory.available));
}

std::string disk_line(const RunSpec& spec, bool continued) {
  if (!io::writes_results(spec))
    return "none: the run writes no results (no output.every, no output.checkpoint_every, no output.stats_every)";
  const DiskUse disk = disk_use(spec, continued);
  const std::string snapshots =
      disk.snapshots == 0 ? "no snapshots"
                          : fmt::format("{} snapshot{} of {} field{} ({}{})", disk.snapshots,
                                        disk.snapshots == 1 ? "" : "s", disk.fields, disk.fields == 1 ? "" : "s",
                                        bytes_text(disk.snapshot_bytes), disk.snapshots == 1 ? "" : " each");
  const std::string checkpoints = disk.checkpoints == 0 ? "no checkpoints"
                                  : disk.checkpoints == 1
                                      ? fmt::format("1 checkpoint ({})", bytes_text(disk.checkpoint_bytes))
                                      : fmt::format("{} checkpoints ({} each, at most 2 at once)", disk.checkpoints,
                                                    bytes_text(disk.checkpoint_bytes));
  const std::string statistics =
      disk.statistics_rows == 0
          ? "no statistics"
          : fmt::format("{} row{} of statistics ({})", disk.statistics_rows, disk.statistics_rows == 1 ? "" : "s",
                        bytes_text(disk.statistics_bytes / 2));
  std::string text = fmt::format("at most {} in '{}': {}, {}, {}", bytes_text(disk.most), printable(spec.output.dir),
                                 snapshots, checkpoints, statistics);
  if (const auto free = free_space(spec.output.dir))
    text += fmt::format("; {} free on the file system of '{}'{}", bytes_text(free->first),
                        printable(free->second.string()), free->first < disk.most ? ": not enough" : "");
  return text;
}

}  // namespace

DiskUse disk_use(const RunSpec& spec, bool continued) {
  DiskUse disk;
  if (!io::writes_results(spec)) return disk;
  const TimeStepping stepping = io::run_time_stepping(spec);
  const double cells =
      static_cast<double>(spec.grid.nx) * static_cast<double>(spec.grid.ny) * static_cast<double>(spec.grid.nz);
  const int variables = state_variables(spec.grid).size();
  if (spec.output.every > 0.0) {
    disk.snapshots = OutputSchedule(stepping, spec.output.every, true).count_after(-1);
    // The profiles are a few values; each tracer's mixing ratio is a field.
    disk.fields = io::grid_fields(spec.output.variables).size() + state_tracers(spec.grid).size();
    disk.snapshot_bytes = static_cast<double>(disk.fields) * cells * bytes_per_value;
  }
  // Checkpoints end with one of the last step; so does a run that writes one to measure a stop
  // under a wall-clock limit, or one continued with --restart.
  disk.checkpoints = OutputSchedule(stepping, spec.output.checkpoint_every, false).count_after(-1);
  if (disk.checkpoints == 0 && (continued || spec.execution.wall_limit > 0.0)) disk.checkpoints = 1;
  disk.checkpoint_bytes = variables * cells * bytes_per_value;
  if (spec.output.stats_every > 0.0) {
    disk.statistics_rows = OutputSchedule(stepping, spec.output.stats_every, true).count_after(-1);
    // The input YAML a file holds is the resolved configuration, a part of every key's.
    // The water's tracers get no d_mass_<name>; its six variables count twice as many as they.
    disk.statistics_bytes =
        2.0 *
        io::statistics_file_bound(disk.statistics_rows, io::every_key_yaml(spec).size(),
                                  state_tracers(spec.grid).size() +
                                      (spec.grid.microphysics != Microphysics::none ? water_tracer_names.size() : 0));
  }
  // A series (output.layout: series) is changed in a working copy of it, which the run keeps
  // beside it (io/hdf5/snapshot_series.hpp): twice its times at the end.
  const double snapshot_copies = spec.output.layout == OutputLayout::series ? 2.0 : 1.0;
  disk.most = snapshot_copies * static_cast<double>(disk.snapshots) * disk.snapshot_bytes +
              static_cast<double>(std::min(2L, disk.checkpoints)) * disk.checkpoint_bytes + disk.statistics_bytes;
  return disk;
}

void check_output_dir(const Setup& setup, const CommandLine& command_line, const Decomposition& decomposition) {
  const RunSpec& spec = setup.config.spec;
  if (spec.execution.mode != ExecutionMode::compare) {
    io::check_output_plan(spec, existing_results(command_line), command_line.restart, decomposition.comm());
    return;
  }
  run_on_root_agreed(decomposition.comm(), [&] {
    io::check_output_directory(spec.output.dir, "timing.json");
    io::refuse_existing_result(fs::path(spec.output.dir) / "timing.json",
                               command_line.overwrite ? io::Overwrite::allow : io::Overwrite::refuse);
  });
}

void print_validation(std::FILE* out, const std::string& config_path, const Setup& setup,
                      const Decomposition& decomposition, const MemoryUse& memory, const std::string& restart) {
  const RunSpec& spec = setup.config.spec;
  const bool continued = !restart.empty();
  fmt::print(out, "{}: configuration is valid{}\n", printable(config_path), printable(restart));
  const TimeStepping stepping = io::run_time_stepping(spec);
  fmt::print(out, "  time      {}\n", describe_time_stepping(stepping, spec));
  if (const auto warning = courant_warning(spec, stepping)) fmt::print(out, "  warning   {}\n", *warning);
  fmt::print(out, "  backend   {}: {}\n", to_string(setup.backend), device::processor_name(setup.backend));
  fmt::print(out, "  ranks     {}\n",
             describe_ranks(decomposition, halo_path(setup.backend, spec.parallel), setup.backend, setup.halo_reason));
  fmt::print(out, "  steps     mode {}, granularity {}\n", describe_mode(setup), describe_granularity(setup));
  fmt::print(out, "  memory    {}\n", memory_line(setup, decomposition, memory));
  fmt::print(out, "  disk      {}\n", disk_line(spec, continued));
  std::fflush(out);
}

}  // namespace simapp::app
