#include "app/profile_report.hpp"

#include <fmt/core.h>

namespace simapp::app {

namespace {

std::string bandwidth_columns(std::size_t bytes, double seconds, double copy_bandwidth) {
  if (bytes == 0 || seconds <= 0.0) return fmt::format("{:>10} {:>10} {:>7}", "–", "–", "–");
  const double achieved = static_cast<double>(bytes) / seconds;
  return fmt::format("{:10.2f} {:10.1f} {:6.1f}%", static_cast<double>(bytes) / 1e6, achieved / 1e9,
                     100.0 * achieved / copy_bandwidth);
}

}  // namespace

void print_profile(std::FILE* out, const StepProfile& profile) {
  fmt::print(out, "copy bandwidth of this device: {:.1f} GB/s (read + written)\n", profile.copy_bandwidth / 1e9);
  fmt::print(out, "{} steps measured, medians and the range of the steps, one launch at a time:\n",
             profile.measured_steps);
  fmt::print(out, "{:<34} {:>10} {:>19} {:>10} {:>10} {:>7}\n", "op", "us", "(min-max)", "MB", "GB/s", "of copy");
  const auto range = [](const SampleSummary& times) {
    return fmt::format("({:.2f}-{:.2f})", times.min * 1e6, times.max * 1e6);
  };
  for (const OpProfile& op : profile.ops)
    fmt::print(out, "{:<34} {:10.2f} {:>19} {}\n", op.name, op.seconds * 1e6, range(op.times),
               bandwidth_columns(op.bytes, op.seconds, profile.copy_bandwidth));
  fmt::print(out, "{:<34} {:10.2f} {:>19} {}\n", "step (the ops' medians summed)", profile.step_seconds * 1e6,
             range(profile.step_times),
             bandwidth_columns(profile.step_bytes, profile.step_seconds, profile.copy_bandwidth));
  const double per_cell = static_cast<double>(profile.step_bytes) / static_cast<double>(profile.cells);
  fmt::print(out, "step: {:.0f} bytes a cell; at the copy bandwidth these bytes take {:.2f} us (the step's floor)\n",
             per_cell, static_cast<double>(profile.step_bytes) / profile.copy_bandwidth * 1e6);
}

}  // namespace simapp::app
