#pragma once
/// timing.json and profile.json: the machine-readable results of execution.mode = compare and
/// of --profile, with the build and the machine's state they were timed on.
#include <array>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "kernels/backend/machine_state.hpp"
#include "solver/simulation/mode_comparison.hpp"
#include "solver/simulation/step_profile.hpp"

namespace simapp::io {

/// Where and on what the comparison ran.
struct TimingContext {
  std::string backend;
  std::string processor;
  int ranks = 1;
  std::array<int, 2> layout{1, 1};        ///< ranks along x and z
  device::MachineState machine_at_start;  ///< rank 0's node and GPU before the timed steps
  device::MachineState machine_at_end;    ///< and after them
};

nlohmann::json timing_json(const RunSpec& spec, const ModeComparison& comparison, const TimingContext& context);

/// profile.json: the ops of a step with their times and bytes (--profile).
nlohmann::json profile_json(const RunSpec& spec, const StepProfile& profile, const TimingContext& context);

/// True when `path` holds a timing report simapp wrote (JSON with its simapp_version).
bool is_timing_report(const std::filesystem::path& path);

}  // namespace simapp::io
