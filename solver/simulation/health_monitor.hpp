#pragma once
/// The host side of the health check inside the step (execution.check_every; the kernels are
/// kernels/diagnostics/health_check.hpp): the device record, its mirror in pinned host memory,
/// and the step after which each check runs, so that the first failure can be named.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "solver/diagnostics/global_cell.hpp"
#include "solver/step/build_step_program.hpp"

namespace simapp {

/// The first failed check: after which step, and what it found where (the cell's variable: a
/// variable index, or speed_finding).
struct HealthFinding {
  long step = 0;
  GlobalCell where;
};

/// "ρu is not finite", "a signal speed |u| + c or |w| + c exceeds 450 m/s", for the model of
/// `global_ny` cells in y (1: the 2-D model's variables).
std::string describe_finding(int finding, int global_ny = 1);

class HealthMonitor {
 public:
  /// Checks after the multiples of `check_every` and the last of `num_steps` steps
  /// (element_follows; 0: none); global_nx, global_nz and global_ny (1: the 2-D model)
  /// decode the cells.
  HealthMonitor(Backend backend, int check_every, long num_steps, int global_nx, int global_nz, int global_ny = 1);

  /// What the chunk programs need to carry the check.
  HealthCheckOps ops() const { return {every_, record_.data(), mirror_.data()}; }
  int check_every() const { return every_; }

  /// Notes the checks that follow the `steps` steps after step `completed`, which every
  /// program places by the same rule, in the order the steps are queued.
  void note_steps(long completed, long steps);
  /// Whether a failed check has reached the host mirror, read without waiting for the device
  /// (the mirror may be behind the device, never ahead of it).
  bool failure_seen() const;
  /// The first failed check, read from the mirror: complete once the stream has been
  /// synchronized after the check.
  std::optional<HealthFinding> failure() const;
  /// Queues clearing the record on `stream` and forgets the noted checks.
  void reset(const Stream& stream);

 private:
  int every_;
  long num_steps_;
  std::int64_t global_nx_, global_nz_, global_ny_;
  DeviceBuffer<HealthRecord> record_;
  PinnedBuffer<HealthRecord> mirror_;
  std::vector<long> checked_steps_;  ///< check n looks at the state after step checked_steps_[n]
};

}  // namespace simapp
