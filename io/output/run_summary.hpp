#pragma once
/// run.json: what a run was and how it ended, for scripts and for the record beside its
/// results: the command, the resolved configuration (as JSON, typed), dt and steps, the ranks
/// and where each ran, the versions and the build (compiler, flags, libraries), the summary's timings, d_mass and d_te
/// (with water d_water and the clipped water), the exit code and why, and when it started and ended. Written by rank 0
/// at the run's end whatever the outcome, as a result file (io/files/result_file.hpp). What is not known by then (the
/// timings of a run that failed) is null.
#include <array>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/provenance/build_description.hpp"
#include "solver/diagnostics/diagnostics.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp::io {

/// run.json's name in output.dir.
inline constexpr const char* run_summary_name = "run.json";

/// Where one rank ran.
struct RankPlacement {
  std::string host;
  std::string processor;
  int device = -1;  ///< the GPU; -1 on the host backend
  std::string pci_bus_id;
  int numa_node = -1;  ///< of the GPU; -1 where the machine reports none
  bool mps = false;    ///< an MPS control daemon serves this rank
};

/// The closing lines' timings, the ranks' reduced: the slowest rank's unless named otherwise.
struct RunTimings {
  long steps = 0;                      ///< stepped by this run
  double wall_seconds = 0.0;           ///< from the first step to the end, output included
  double wall_min_seconds = 0.0;       ///< the fastest rank's
  double wall_avg_seconds = 0.0;       ///< over the ranks
  double output_seconds = 0.0;         ///< output that blocked the steps
  double output_thread_seconds = 0.0;  ///< writer threads' time beside the steps
  double output_waited_seconds = 0.0;  ///< of output_seconds, waiting for the writer threads
  long outputs_written = 0;
};

/// Each tracer's relative mass change, by the tracer's name (none without tracers).
using TracerChanges = std::vector<std::pair<std::string, double>>;

/// The last progress line's figures.
struct ProgressPoint {
  long step = 0;
  double time = 0.0;  ///< simulated, s
  double d_mass = 0.0;
  double d_te = 0.0;
  TracerChanges d_mass_tracers;
  std::optional<WaterChange> water{};  ///< a run with water's d_water and clipped water
};

/// What run.json records; filled in as the run goes.
struct RunSummary {
  std::vector<std::string> command;  ///< rank 0's argv
  std::string host;                  ///< rank 0's
  long pid = 0;                      ///< rank 0's
  int ranks = 1;
  std::chrono::system_clock::time_point started;
  std::chrono::system_clock::time_point ended;
  std::string cuda_compiler;  ///< the CUDA compiler's version, when the CUDA backend is built
  BuildDescription build;

  std::optional<RunSpec> spec;  ///< the resolved configuration
  std::string config_path;
  std::string backend;
  std::string halo;         ///< how halos travel, and why
  std::string granularity;  ///< the step's granularity, with what auto decided ("pass (auto: …)")
  std::array<int, 2> layout{1, 1};
  std::vector<RankPlacement> placements;  ///< by rank, once the header has gathered them

  double dt = 0.0;       ///< s
  double dt_last = 0.0;  ///< s
  long total_steps = 0;
  std::optional<long> first_step;  ///< where this run started (a restart: its checkpoint's)
  std::optional<long> last_step;   ///< where it ended
  std::optional<std::string> restarted_from;

  std::optional<ProgressPoint> last_progress;
  std::optional<RunTimings> timings;
  std::optional<double> d_mass;
  std::optional<double> d_te;
  std::optional<WaterChange> water;  ///< written as d_water and clipped_water_kg, after d_te (a run with water)
  TracerChanges d_mass_tracers;      ///< written as d_mass_<name>, after them

  int exit_code = 0;
  std::string reason;
};

/// run.json's text of `summary`.
nlohmann::ordered_json run_summary_json(const RunSummary& summary);

/// `time` as ISO 8601 UTC to the millisecond: 2026-12-01T23:41:07.123Z.
std::string iso_8601_utc(std::chrono::system_clock::time_point time);

/// Writes `summary` to `path` as a result file; throws an I/O Error on failure.
void write_run_summary(const std::filesystem::path& path, const RunSummary& summary);

/// Whether `path` holds a run.json simapp wrote (a JSON object with its mark).
bool is_run_summary(const std::filesystem::path& path);

}  // namespace simapp::io
