#pragma once
/// timing.json: the machine-readable result of execution.mode = compare.
#include <string>

#include <nlohmann/json.hpp>

#include "solver/simulation/mode_comparison.hpp"

namespace simapp::io {

/// Where and on what the comparison ran.
struct TimingContext {
  std::string backend;
  std::string processor;
};

nlohmann::json timing_json(const RunSpec& spec, const ModeComparison& comparison, const TimingContext& context);

}  // namespace simapp::io
