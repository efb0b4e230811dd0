#include "solver/simulation/health_monitor.hpp"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernels/physics/variables.hpp"
#include "kernels/time/cadence.hpp"

namespace simapp {

namespace {

/// "|u| + c, |v| + c or |w| + c": the signal speeds along the model's axes, by the velocities
/// its momenta are written as.
std::string signal_speeds(const VariableTable& variables) {
  std::vector<std::string> speeds;
  for (const VariableInfo& variable : variables)
    if (variable.kind == VariableKind::momentum) speeds.push_back(fmt::format("|{}| + c", variable.output_name));
  std::string text = speeds.back();
  if (speeds.size() > 1) {
    speeds.pop_back();
    text = fmt::format("{} or {}", fmt::join(speeds, ", "), text);
  }
  return text;
}

}  // namespace

std::string describe_finding(int finding, int global_ny) {
  const VariableTable variables = model_variables_of_grid(global_ny);
  // A finding past the variables is a signal speed beyond the bound (kernels/diagnostics/cell_health.hpp).
  if (finding == variables.size())
    return fmt::format("a signal speed {} exceeds 450 m/s (the Courant number exceeds time.cfl)",
                       signal_speeds(variables));
  return fmt::format("{} is not finite", variable_name(finding, global_ny));
}

HealthMonitor::HealthMonitor(Backend backend, int check_every, long num_steps, int global_nx, int global_nz,
                             int global_ny)
    : every_(check_every),
      num_steps_(num_steps),
      global_nx_(global_nx),
      global_nz_(global_nz),
      global_ny_(global_ny),
      record_(backend, 1),
      mirror_(backend, 1) {}

void HealthMonitor::note_steps(long completed, long steps) {
  for (long step = completed + 1; step <= completed + steps; ++step)
    if (element_follows(every_, step, num_steps_)) checked_steps_.push_back(step);
}

bool HealthMonitor::failure_seen() const {
  return every_ > 0 && __atomic_load_n(&mirror_.data()->failed_check, __ATOMIC_ACQUIRE) >= 0;
}

std::optional<HealthFinding> HealthMonitor::failure() const {
  if (!failure_seen()) return std::nullopt;
  const HealthRecord record = *mirror_.data();
  return HealthFinding{
      checked_steps_.at(static_cast<std::size_t>(record.failed_check)),
      GlobalCell::of_code(static_cast<std::int64_t>(record.first_cell), global_nx_, global_nz_, global_ny_)};
}

void HealthMonitor::reset(const Stream& stream) {
  *mirror_.data() = HealthRecord{};
  device::copy_async(stream, record_.data(), mirror_.data(), sizeof(HealthRecord),
                     device::CopyDirection::host_to_device);
  checked_steps_.clear();
}

}  // namespace simapp
