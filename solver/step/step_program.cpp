#include "solver/step/step_program.hpp"

#include <algorithm>

namespace simapp {

void StepProgram::add_kernel(std::string name, std::function<void(const Stream&)> launch) {
  ops_.push_back({OpKind::kernel, std::move(name), std::move(launch)});
}

void StepProgram::add_host(std::string name, std::function<void(const Stream&)> action) {
  ops_.push_back({OpKind::host, std::move(name), std::move(action)});
}

std::size_t StepProgram::kernel_count() const {
  return static_cast<std::size_t>(
      std::count_if(ops_.begin(), ops_.end(), [](const StepOp& op) { return op.kind == OpKind::kernel; }));
}

std::vector<Segment> StepProgram::segments() const {
  std::vector<Segment> result;
  std::size_t first = 0;
  for (std::size_t index = 0; index <= ops_.size(); ++index) {
    if (index == ops_.size() || ops_[index].kind == OpKind::host) {
      if (index > first) result.push_back({first, index});
      first = index + 1;
    }
  }
  return result;
}

}  // namespace simapp
