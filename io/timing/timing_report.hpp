#pragma once
/// timing.json: the machine-readable result of execution.mode = compare.
#include <array>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "solver/simulation/mode_comparison.hpp"

namespace simapp::io {

/// Where and on what the comparison ran.
struct TimingContext {
  std::string backend;
  std::string processor;
  int ranks = 1;
  std::array<int, 2> layout{1, 1};  ///< ranks along x and z
};

nlohmann::json timing_json(const RunSpec& spec, const ModeComparison& comparison, const TimingContext& context);

/// True when `path` holds a timing report simapp wrote (JSON with its simapp_version).
bool is_timing_report(const std::filesystem::path& path);

}  // namespace simapp::io
