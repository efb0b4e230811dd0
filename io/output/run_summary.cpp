#include "io/output/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <string_view>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/config/config_schema.hpp"
#include "io/files/result_file.hpp"
#include "simapp_version.hpp"

namespace simapp::io {

namespace {

using Json = nlohmann::ordered_json;

/// The mark by which simapp knows its run.json: the first key, naming the file's kind.
constexpr const char* summary_mark = "simapp_run_summary";
/// The format of run.json, raised when a key changes meaning or goes.
constexpr int summary_format = 1;
/// The largest run.json read back to tell it apart (one line a rank: far above any job).
constexpr std::uintmax_t largest_summary = std::uintmax_t{64} << 20;

/// A finite value, or null.
Json finite(double value) { return std::isfinite(value) ? Json(value) : Json(); }

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

/// The configuration as the keys of config_keys() hold it (those listed for `spec`), nested by
/// their dotted paths, typed.
Json config_json(const RunSpec& spec) {
  Json root = Json::object();
  for (const ConfigKey& key : config_keys()) {
    if (!is_listed(key, spec)) continue;
    Json* node = &root;
    std::string_view path = key.path;
    for (std::size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.')) {
      node = &(*node)[std::string(path.substr(0, dot))];
      path.remove_prefix(dot + 1);
    }
    (*node)[std::string(path)] = std::visit(
        [](const auto& value) -> Json {
          using T = std::remove_cvref_t<decltype(value)>;
          if constexpr (std::is_same_v<T, double>) {
            return finite(value);
          } else if constexpr (std::is_same_v<T, RealList>) {
            Json list = Json::array();  // an infinite radius as "inf": JSON has no number for it
            for (const double item : value)
              list.push_back(std::isinf(item) ? Json(item > 0 ? "inf" : "-inf") : finite(item));
            return list;
          } else {
            return Json(value);
          }
        },
        key.get(spec));
  }
  return root;
}

Json timings_json(const RunTimings& t) {
  return {
      {"steps", t.steps},
      {"wall_s", t.wall_seconds},
      {"stepping_s", std::max(0.0, t.wall_seconds - t.output_seconds)},
      {"output_blocking_s", t.output_seconds},
      {"output_waiting_for_writer_s", t.output_waited_seconds},
      {"output_writer_thread_s", std::max(0.0, t.output_thread_seconds - t.output_waited_seconds)},
      {"outputs_written", t.outputs_written},
      {"ms_per_step", t.steps > 0 ? t.wall_seconds / static_cast<double>(t.steps) * 1e3 : 0.0},
      {"wall_min_s", t.wall_min_seconds},
      {"wall_avg_s", t.wall_avg_seconds},
  };
}

Json placements_json(const std::vector<RankPlacement>& placements) {
  Json ranks = Json::array();
  for (std::size_t r = 0; r < placements.size(); ++r) {
    const RankPlacement& p = placements[r];
    Json rank{{"rank", r}, {"host", p.host}, {"processor", p.processor}};
    rank["gpu"] = p.device >= 0 ? Json(p.device) : Json();
    if (p.device >= 0) {
      rank["pci_bus_id"] = p.pci_bus_id;
      rank["numa_node"] = p.numa_node >= 0 ? Json(p.numa_node) : Json();
      rank["mps"] = p.mps;
    }
    ranks.push_back(rank);
  }
  return ranks;
}

/// Adds d_water and clipped_water_kg where the run has water, then d_mass_<name> for each tracer.
void add_water_and_tracer_changes(Json& json, const std::optional<WaterChange>& water, const TracerChanges& changes) {
  if (water) {
    json["d_water"] = finite(water->water);
    json["clipped_water_kg"] = finite(water->clipped);
  }
  for (const auto& [name, change] : changes) json["d_mass_" + name] = finite(change);
}

Json last_progress_json(const ProgressPoint& point) {
  Json json{{"step", point.step}, {"t_s", point.time}, {"d_mass", finite(point.d_mass)}, {"d_te", finite(point.d_te)}};
  add_water_and_tracer_changes(json, point.water, point.d_mass_tracers);
  return json;
}

}  // namespace

std::string iso_8601_utc(std::chrono::system_clock::time_point time) {
  const auto milliseconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count() % 1000;
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:03}Z", text, milliseconds);
}

Json run_summary_json(const RunSummary& s) {
  Json json{
      {summary_mark, summary_format},
      {"simapp_version", build_info::version},
      {"git", build_info::git_hash},
      {"cuda", s.cuda_compiler.empty() ? Json{{"built", false}} : Json{{"built", true}, {"compiler", s.cuda_compiler}}},
      {"build", build_json(s.build)},
      {"exit_code", s.exit_code},
      {"outcome", meaning(static_cast<ExitCode>(s.exit_code))},
      {"reason", s.reason},
      {"started", iso_8601_utc(s.started)},
      {"ended", iso_8601_utc(s.ended)},
      {"wall_s", std::chrono::duration<double>(s.ended - s.started).count()},
      {"command", s.command},
      {"host", s.host},
      {"pid", s.pid},
      {"config_file", s.config_path},
  };
  if (s.spec) {
    json["case"] = to_string(s.spec->case_name);
    json["nx"] = s.spec->grid.nx;
    if (s.spec->grid.ny > 1) json["ny"] = s.spec->grid.ny;
    json["nz"] = s.spec->grid.nz;
    json["sim_time_s"] = s.spec->time.sim_time;
  }
  json["dt_s"] = s.dt;
  json["dt_last_s"] = s.dt_last;
  json["steps"] = {
      {"total", s.total_steps}, {"first", optional_json(s.first_step)}, {"last", optional_json(s.last_step)}};
  json["restarted_from"] = optional_json(s.restarted_from);
  json["ranks"] = s.ranks;
  json["layout"] = s.layout;
  json["halo"] = s.halo;
  json["granularity"] = s.granularity;
  json["backend"] = s.backend;
  json["placements"] = placements_json(s.placements);
  json["timing"] = s.timings ? timings_json(*s.timings) : Json();
  json["d_mass"] = s.d_mass ? finite(*s.d_mass) : Json();
  json["d_te"] = s.d_te ? finite(*s.d_te) : Json();
  add_water_and_tracer_changes(json, s.water, s.d_mass_tracers);
  json["last_progress"] = s.last_progress ? last_progress_json(*s.last_progress) : Json();
  json["config"] = s.spec ? config_json(*s.spec) : Json();
  return json;
}

void write_run_summary(const std::filesystem::path& path, const RunSummary& summary) {
  write_result_file(path, run_summary_json(summary).dump(2) + "\n");
}

bool is_run_summary(const std::filesystem::path& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > largest_summary) return false;
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  const Json summary = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return summary.is_object() && summary.contains(summary_mark) && summary.contains("simapp_version");
}

}  // namespace simapp::io
