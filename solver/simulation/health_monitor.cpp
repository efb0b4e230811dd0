#include "solver/simulation/health_monitor.hpp"

#include <fmt/format.h>

#include "kernels/physics/variables.hpp"

namespace simapp {

std::string describe_finding(int finding, int global_ny) {
  if (global_ny > 1)
    return finding == speed_finding_3d
               ? "a signal speed |u| + c, |v| + c or |w| + c exceeds 450 m/s (the Courant number exceeds time.cfl)"
               : fmt::format("{} is not finite", variable_name(finding, global_ny));
  if (finding == speed_finding)
    return "a signal speed |u| + c or |w| + c exceeds 450 m/s (the Courant number exceeds time.cfl)";
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
    if (checks_after_step(step, num_steps_, every_)) checked_steps_.push_back(step);
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
