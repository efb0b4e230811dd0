#pragma once
/// Runs a StepProgram op by op: one launch per Kernel or Transfer op, Host ops inline. With
/// Synchronization::every_launch it also waits after every launch (the naive baseline).
#include "solver/executor/step_executor.hpp"

namespace simapp {

enum class Synchronization { none, every_launch };

class EagerExecutor final : public StepExecutor {
 public:
  explicit EagerExecutor(Synchronization synchronization) : synchronization_(synchronization) {}

  void run(const StepProgram& program, const Stream& stream) override;
  void prepare(const StepProgram&, const Stream&) override {}

 private:
  Synchronization synchronization_;
};

}  // namespace simapp
