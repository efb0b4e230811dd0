#pragma once
/// The machine's state (kernels/backend/machine_state.hpp) as a timing report shows it: a line
/// of text, and JSON for timing.json and profile.json.
#include <string>

#include <nlohmann/json.hpp>

#include "kernels/backend/machine_state.hpp"

namespace simapp::io {

/// "load 0.52 0.40 0.31 on 2 CPUs, CPU 1996 MHz (cpuinfo), governor not readable; GPU none
/// (host backend)".
std::string describe_machine_state(const device::MachineState& state);

/// Every field; null where not readable ("gpu": null on the host backend).
nlohmann::json machine_state_json(const device::MachineState& state);

}  // namespace simapp::io
