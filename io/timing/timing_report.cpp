#include "io/timing/timing_report.hpp"

#include <cmath>
#include <fstream>
#include <optional>

#include "io/provenance/build_description.hpp"
#include "io/timing/machine_report.hpp"
#include "simapp_version.hpp"

namespace simapp::io {

namespace {

/// A finite value, or null.
nlohmann::json finite_json(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

/// The median of a figure, or null when there is none.
nlohmann::json median_json(const std::optional<RangedValue>& value) {
  return value ? finite_json(value->median) : nlohmann::json();
}

/// [low, high] of a figure (null where infinite), or null when there is none.
nlohmann::json range_json(const std::optional<RangedValue>& value) {
  return value ? nlohmann::json::array({finite_json(value->low), finite_json(value->high)}) : nlohmann::json();
}

/// A summary of times in seconds, in µs.
nlohmann::json summary_json(const SampleSummary& summary) {
  return {{"median_us", summary.median * 1e6},
          {"min_us", summary.min * 1e6},
          {"max_us", summary.max * 1e6},
          {"q1_us", summary.q1 * 1e6},
          {"q3_us", summary.q3 * 1e6},
          {"median_low_us", summary.median_low * 1e6},
          {"median_high_us", summary.median_high * 1e6},
          {"relative_spread", summary.relative_spread()}};
}

nlohmann::json mode_json(const ModeComparison& comparison, const ModeTiming& timing) {
  nlohmann::json samples = nlohmann::json::array();
  for (const double seconds : timing.seconds_per_step) samples.push_back(seconds * 1e6);
  nlohmann::json close = nlohmann::json::array();
  for (const ExecutionMode other : within_noise_of(comparison, timing.mode)) close.push_back(to_string(other));
  const std::optional<RangedValue> vs_eager_sync = speedup(comparison, timing.mode, ExecutionMode::eager_sync);
  const std::optional<RangedValue> vs_eager = speedup(comparison, timing.mode, ExecutionMode::eager);
  nlohmann::json mode{
      {"mode", to_string(timing.mode)},
      {"steps", timing.steps},
      {"seconds", timing.seconds_per_step.front() * static_cast<double>(timing.steps)},
      {"time_per_step_us", timing.per_step.median * 1e6},
      {"time_per_step", summary_json(timing.per_step)},
      {"time_per_step_samples_us", samples},
      {"within_noise_of", close},
      {"kernels_per_step", timing.kernels_per_step},
      {"launches_per_step", timing.launches_per_step},
      {"speedup_vs_eager_sync", median_json(vs_eager_sync)},
      {"speedup_vs_eager_sync_range", range_json(vs_eager_sync)},
      {"speedup_vs_eager", median_json(vs_eager)},
      {"speedup_vs_eager_range", range_json(vs_eager)},
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
    mode["break_even_steps"] = median_json(break_even_steps(comparison, timing.mode));
    mode["break_even_steps_range"] = range_json(break_even_steps(comparison, timing.mode));
  }
  return mode;
}

/// The machine's state before and after the timed steps.
nlohmann::json machine_json(const TimingContext& context) {
  return {{"start", machine_state_json(context.machine_at_start)}, {"end", machine_state_json(context.machine_at_end)}};
}

/// What every report starts with: the simapp that wrote it and the case.
nlohmann::json report_header(const RunSpec& spec) {
  nlohmann::json header{
      {"simapp_version", build_info::version}, {"git", build_info::git_hash}, {"build", build_json(this_build())},
      {"case", to_string(spec.case_name)},     {"nx", spec.grid.nx},
  };
  if (spec.grid.ny > 1) header["ny"] = spec.grid.ny;  // the 3-D model
  header["nz"] = spec.grid.nz;
  return header;
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
      {"cells", cell_count(spec.grid)},
      {"backend", context.backend},
      {"processor", context.processor},
      {"ranks", context.ranks},
      {"layout", context.layout},
      {"halo", to_string(spec.parallel.halo)},
      {"granularity", to_string(spec.execution.granularity)},
      {"steps_per_graph", comparison.steps_per_graph},
      {"warmup_steps", comparison.warmup_steps},
      {"repeats", comparison.rounds},
      {"identical", comparison.identical},
      {"difference", comparison.difference},
      {"modes", modes},
      {"skipped", skipped},
      {"machine", machine_json(context)},
  });
  return report;
}

nlohmann::json profile_json(const RunSpec& spec, const StepProfile& profile, const TimingContext& context) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpProfile& op : profile.ops) {
    nlohmann::json entry{
        {"op", op.name}, {"us", op.seconds * 1e6}, {"time", summary_json(op.times)}, {"bytes", op.bytes}};
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
      {"step_time", summary_json(profile.step_times)},
      {"step_bytes", profile.step_bytes},
      {"step_bytes_per_cell", static_cast<double>(profile.step_bytes) / static_cast<double>(profile.cells)},
      {"step_floor_us", static_cast<double>(profile.step_bytes) / profile.copy_bandwidth * 1e6},
      {"ops", ops},
      {"machine", machine_json(context)},
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
