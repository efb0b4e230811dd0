#pragma once
/// Runs a StepProgram op by op: one launch per Kernel or Transfer op, Host ops inline. With
/// Synchronization::every_launch it also waits after every launch (the naive baseline).
#include "solver/executor/program_runner.hpp"

namespace simapp {

enum class Synchronization { none, every_launch };

class EagerRunner final : public ProgramRunner {
 public:
  explicit EagerRunner(Synchronization synchronization) : synchronization_(synchronization) {}

  void run(const StepProgram& program, const Stream& stream) override;
  void prepare(const StepProgram&, const Stream&) override {}

 private:
  Synchronization synchronization_;
};

}  // namespace simapp
