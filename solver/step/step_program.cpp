#include "solver/step/step_program.hpp"

#include <algorithm>
#include <stdexcept>

namespace simapp {

StepOp& StepProgram::add(OpKind kind, std::string name, std::function<void(const Stream&)> run, int lane) {
  if (lane < 0 || lane >= max_lanes) throw std::invalid_argument("StepProgram::add: lane out of range");
  return ops_.emplace_back(StepOp{kind, std::move(name), std::move(run), lane});
}

void StepProgram::add_join(std::string name) { ops_.push_back({OpKind::join, std::move(name), {}, 0}); }

bool StepProgram::uses_lanes() const {
  return std::ranges::any_of(ops_, [](const StepOp& op) { return op.lane != 0; });
}

int StepProgram::lanes() const {
  int highest = 0;
  for (const StepOp& op : ops_) highest = std::max(highest, op.lane);
  return highest + 1;
}

void StepProgram::append(const StepProgram& other, const std::string& prefix) {
  for (const StepOp& op : other.ops_) ops_.push_back({op.kind, prefix + op.name, op.run, op.lane, op.bytes});
}

std::size_t StepProgram::count(OpKind kind) const {
  return static_cast<std::size_t>(std::ranges::count(ops_, kind, &StepOp::kind));
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

void StepProgram::scale_bytes(std::size_t numerator, std::size_t denominator) {
  for (StepOp& op : ops_) op.bytes = op.bytes * numerator / denominator;
}

}  // namespace simapp
