#pragma once
/// Runs a StepProgram op by op: one launch per Kernel op, Host ops inline. With
/// Synchronization::every_launch it also waits after every launch (the naive baseline).
#include "solver/step/step_program.hpp"

namespace simapp {

enum class Synchronization { none, every_launch };

class EagerExecutor {
 public:
  explicit EagerExecutor(Synchronization synchronization) : synchronization_(synchronization) {}

  void run(const StepProgram& program, const Stream& stream) const;

 private:
  Synchronization synchronization_;
};

}  // namespace simapp
