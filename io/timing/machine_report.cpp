#include "io/timing/machine_report.hpp"

#include <optional>
#include <string_view>

#include <fmt/format.h>

namespace simapp::io {

namespace {

using device::GpuState;
using device::MachineState;

template <class T>
nlohmann::json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json text_or_null(const std::string& text) { return text.empty() ? nlohmann::json() : nlohmann::json(text); }

std::string readable(const std::optional<double>& value, std::string_view unit) {
  return value ? fmt::format("{:.0f} {}", *value, unit) : std::string("not readable");
}

std::string describe_gpu(const GpuState& gpu) {
  std::string text = fmt::format("GPU {} ({}): SM clock {}", gpu.device, gpu.source, readable(gpu.sm_clock_mhz, "MHz"));
  if (gpu.max_sm_clock_mhz) text += fmt::format(" (peak {:.0f} MHz)", *gpu.max_sm_clock_mhz);
  text += fmt::format(", memory clock {}, temperature {}, power {}", readable(gpu.memory_clock_mhz, "MHz"),
                      readable(gpu.temperature_c, "C"), readable(gpu.power_w, "W"));
  if (gpu.throttle_reasons)
    text += *gpu.throttle_reasons == 0 ? ", not throttled"
                                       : fmt::format(", throttled (NVML reasons {:#x})", *gpu.throttle_reasons);
  return text;
}

nlohmann::json gpu_json(const GpuState& gpu) {
  return {{"device", gpu.device},
          {"source", gpu.source},
          {"sm_clock_mhz", optional_json(gpu.sm_clock_mhz)},
          {"max_sm_clock_mhz", optional_json(gpu.max_sm_clock_mhz)},
          {"memory_clock_mhz", optional_json(gpu.memory_clock_mhz)},
          {"temperature_c", optional_json(gpu.temperature_c)},
          {"power_w", optional_json(gpu.power_w)},
          {"throttle_reasons", optional_json(gpu.throttle_reasons)}};
}

}  // namespace

std::string describe_machine_state(const MachineState& state) {
  std::string text = state.load_average
                         ? fmt::format("load {:.2f} {:.2f} {:.2f} on {} CPUs", (*state.load_average)[0],
                                       (*state.load_average)[1], (*state.load_average)[2], state.cpus_online)
                         : fmt::format("load not readable, {} CPUs", state.cpus_online);
  if (!state.cpu_mhz_min)
    text += ", CPU clock not readable";
  else if (*state.cpu_mhz_min == *state.cpu_mhz_max)
    text += fmt::format(", CPU {:.0f} MHz ({})", *state.cpu_mhz_min, state.cpu_mhz_source);
  else
    text += fmt::format(", CPU {:.0f}-{:.0f} MHz ({})", *state.cpu_mhz_min, *state.cpu_mhz_max, state.cpu_mhz_source);
  text += state.governor.empty() ? ", governor not readable" : ", governor " + state.governor;
  return text + "; " + (state.gpu ? describe_gpu(*state.gpu) : std::string("GPU none (host backend)"));
}

nlohmann::json machine_state_json(const MachineState& state) {
  return {
      {"load_average", optional_json(state.load_average)},         {"cpus_online", state.cpus_online},
      {"cpu_mhz_min", optional_json(state.cpu_mhz_min)},           {"cpu_mhz_max", optional_json(state.cpu_mhz_max)},
      {"cpu_mhz_source", text_or_null(state.cpu_mhz_source)},      {"governor", text_or_null(state.governor)},
      {"gpu", state.gpu ? gpu_json(*state.gpu) : nlohmann::json()}};
}

}  // namespace simapp::io
