#pragma once
/// stats.nc (output.stats_every): the statistics of the flow over time in one small
/// netCDF-4/CF file, one row a time along its unlimited dimension:
///   /time                   (time) the time of each row, seconds since time.start (CF units and
///                           calendar); the dimension scale of the unlimited dimension time
///   /step                   (time) the time step (int64)
///   /mass, /total_energy    (time) kg and J (per metre of y in the 2-D model)
///   /d_mass, /d_te          (time) their relative changes since t = 0, as the progress lines
///   /kinetic_energy         (time) Σ ½ρ|u|² dV, J (per metre of y in 2-D)
///   /max_abs_u, /max_abs_v, /max_abs_w  (time) m s-1 (max_abs_v: the 3-D model's only)
///   /min_theta_prime, /max_theta_prime  (time) K
///   /cfl                    (time) the Courant number reached, max (|u_a| + c) dt / Δ_a
///   /water, /d_water        (time) with water (physics.microphysics): the total water W =
///                           Σ(ρ_v + ρ_c + ρ_r) dV + Σ precipitation_amount dA (kg, per metre of y
///                           in 2-D) and its relative change since t = 0; mass and d_mass are then
///                           the dry air's, Σρ_d dV
///   /clipped_water          (time) with water: the water clipped since t = 0 (kg, per metre of y in 2-D)
///   /precipitation          (time) with water: the water on the ground, Σ precipitation_amount dA
///   /mean_rain_rate, /max_rain_rate  (time) with water: the snapshots' rain_rate (kg m-2 s-1)
///                           averaged over the columns, and its largest value (the sums exact in
///                           fixed point, to 2^-50 kg m-2 a column's precipitation and 2^-60 m s-1
///                           its rate)
///   /d_mass_<tracer>        (time) each tracer's relative mass change since t = 0 (with tracers:
///                           physics.tracers, the snapshots' tracer fields besides the water's)
///   every variable has units, long_name and a comment that says how it is computed; root
///   attributes as a snapshot's (Conventions, title, source, case, nx, nz, dx, dz, in 3-D ny
///   and dy, simapp_version, git_hash, input_yaml).
/// The file is small (about 45 kB and 100 bytes a row): its writer keeps every row and writes the whole
/// file again as a new file (`.simapp_tmp/`, synced) renamed over the old one. A reader, while the
/// run goes or after it was killed, opens a whole file, never one being changed; a row is on the
/// disk when the file is written next: at once, unless the file was written less than
/// `statistics_hold_seconds` of wall time before (then at the next row after that, at flush(),
/// which the run calls before each checkpoint and at its end).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "solver/diagnostics/diagnostics.hpp"

namespace simapp::io {

/// The statistics file's name in output.dir.
inline constexpr const char* statistics_file_name = "stats.nc";

/// Wall-clock seconds a row may wait before the file is written again.
inline constexpr double statistics_hold_seconds = 2.0;

/// More than the bytes of a statistics file of `rows` rows, an input YAML of `yaml_bytes` and
/// `tracers` variables besides the dry model's (a tracer's d_mass_<name>, the water's six).
double statistics_file_bound(long rows, std::size_t yaml_bytes, std::size_t tracers = 0);

/// The statistics of one time.
struct StatisticsRow {
  long step = 0;
  double time = 0.0;  ///< s
  FlowStatistics statistics;
  DiagnosticsChange change;  ///< of the totals since t = 0
};

/// The rows of a run's stats.nc, kept by the one process that writes it.
class StatisticsFile {
 public:
  /// The file at `path` of the run `run` describes (its grid, case and texts; its state unused),
  /// its times in seconds since `time_start` (time.start, an ISO 8601 date and time in UTC).
  /// `kept_step` set: a restarted run continues the file at `path` if there is one, keeping its
  /// rows of steps up to `kept_step` and writing it again at once without the others. Throws a
  /// bad-input Error for a file to continue that is not a statistics file of this run's model
  /// (left as it was), an I/O Error when it cannot be read or written.
  StatisticsFile(std::filesystem::path path, Snapshot run, std::string time_start, std::optional<long> kept_step);

  /// Adds `row` (of a later step than the rows so far) and writes the file unless it was written
  /// less than statistics_hold_seconds ago; returns whether it wrote. Throws an I/O Error when
  /// writing fails (the file on the disk stays as it was).
  bool append(const StatisticsRow& row);
  /// Writes the file when rows wait; returns whether it wrote. Throws as append() does.
  bool flush();

  const std::vector<StatisticsRow>& rows() const { return rows_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  void write();

  std::filesystem::path path_;
  Snapshot run_;
  std::string time_start_;
  std::vector<StatisticsRow> rows_;
  bool on_disk_ = false;          ///< the file at path_ is this writer's (written, or continued)
  std::size_t rows_written_ = 0;  ///< of rows_, those the file on the disk holds
  std::optional<std::chrono::steady_clock::time_point> written_at_;
};

/// The rows of the statistics file at `path` of a run with `tracers` (of physics.tracers) and the
/// water of `microphysics` (tests and tools; a restart reads them so). Throws an Error of kind
/// `failure` naming the file and what is wrong.
std::vector<StatisticsRow> read_statistics_file(const std::filesystem::path& path, ExitCode failure,
                                                const std::vector<std::string>& tracers = {},
                                                Microphysics microphysics = Microphysics::none);

}  // namespace simapp::io
