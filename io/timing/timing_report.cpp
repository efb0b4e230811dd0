#include "io/timing/timing_report.hpp"

#include <cmath>
#include <fstream>
#include <optional>

#include "simapp_version.hpp"

namespace simapp::io {

namespace {

/// A value, or null when there is none.
nlohmann::json optional_json(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json mode_json(const ModeComparison& comparison, const ModeTiming& timing) {
  nlohmann::json mode{
      {"mode", to_string(timing.mode)},
      {"steps", timing.steps},
      {"seconds", timing.seconds},
      {"time_per_step_us", timing.seconds_per_step() * 1e6},
      {"kernels_per_step", timing.kernels_per_step},
      {"launches_per_step", timing.launches_per_step},
      {"speedup_vs_eager_sync", optional_json(speedup(comparison, timing.mode, ExecutionMode::eager_sync))},
      {"speedup_vs_eager", optional_json(speedup(comparison, timing.mode, ExecutionMode::eager))},
      {"captures", timing.stats.captures},
      {"instantiations", timing.stats.instantiations},
      {"d_mass", timing.change.mass},
      {"d_te", timing.change.total_energy},
  };
  if (timing.grid_barriers_per_step > 0) mode["grid_barriers_per_step"] = timing.grid_barriers_per_step;
  if (timing.stats.captures > 0) {
    mode["graphs"] = timing.stats.nodes_per_graph.size();
    mode["nodes_per_graph"] = timing.stats.nodes_per_graph;
    mode["capture_ms"] = timing.stats.capture_seconds * 1e3;
    mode["instantiate_ms"] = timing.stats.instantiate_seconds * 1e3;
    mode["break_even_steps"] = optional_json(break_even_steps(comparison, timing.mode));
  }
  return mode;
}

/// What every report starts with: the simapp that wrote it and the case.
nlohmann::json report_header(const RunSpec& spec) {
  return {
      {"simapp_version", build_info::version},
      {"git", build_info::git_hash},
      {"case", to_string(spec.case_name)},
      {"nx", spec.grid.nx},
      {"nz", spec.grid.nz},
  };
}

}  // namespace

nlohmann::json timing_json(const RunSpec& spec, const ModeComparison& comparison, const TimingContext& context) {
  nlohmann::json modes = nlohmann::json::array();
  for (const ModeTiming& timing : comparison.modes) modes.push_back(mode_json(comparison, timing));
  nlohmann::json skipped = nlohmann::json::array();
  for (const SkippedMode& mode : comparison.skipped)
    skipped.push_back({{"mode", to_string(mode.mode)}, {"reason", mode.reason}});
  nlohmann::json report = report_header(spec);
  report.update({
      {"cells", static_cast<long>(spec.grid.nx) * spec.grid.nz},
      {"backend", context.backend},
      {"processor", context.processor},
      {"ranks", context.ranks},
      {"layout", context.layout},
      {"halo", to_string(spec.parallel.halo)},
      {"granularity", to_string(spec.execution.granularity)},
      {"steps_per_graph", comparison.steps_per_graph},
      {"warmup_steps", comparison.warmup_steps},
      {"identical", comparison.identical},
      {"difference", comparison.difference},
      {"modes", modes},
      {"skipped", skipped},
  });
  return report;
}

nlohmann::json profile_json(const RunSpec& spec, const StepProfile& profile, const TimingContext& context) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpProfile& op : profile.ops) {
    nlohmann::json entry{{"op", op.name}, {"us", op.seconds * 1e6}, {"bytes", op.bytes}};
    if (op.bytes > 0 && op.seconds > 0.0) {
      entry["gb_per_s"] = static_cast<double>(op.bytes) / op.seconds / 1e9;
      entry["fraction_of_copy"] = static_cast<double>(op.bytes) / op.seconds / profile.copy_bandwidth;
    }
    ops.push_back(entry);
  }
  nlohmann::json report = report_header(spec);
  report.update({
      {"rank_cells", profile.cells},
      {"granularity", to_string(spec.execution.granularity)},
      {"backend", context.backend},
      {"processor", context.processor},
      {"ranks", context.ranks},
      {"copy_bandwidth_gb_per_s", profile.copy_bandwidth / 1e9},
      {"measured_steps", profile.measured_steps},
      {"step_us", profile.step_seconds * 1e6},
      {"step_bytes", profile.step_bytes},
      {"step_bytes_per_cell", static_cast<double>(profile.step_bytes) / static_cast<double>(profile.cells)},
      {"step_floor_us", static_cast<double>(profile.step_bytes) / profile.copy_bandwidth * 1e6},
      {"ops", ops},
  });
  return report;
}

bool is_timing_report(const std::filesystem::path& path) {
  constexpr std::size_t largest = std::size_t{1} << 20;
  std::ifstream in(path, std::ios::binary);
  std::string text(largest, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const nlohmann::json report = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return report.is_object() && report.contains("simapp_version");
}

}  // namespace simapp::io
