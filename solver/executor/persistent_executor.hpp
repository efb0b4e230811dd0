#pragma once
/// execution.mode persistent: a batch is one launch of the persistent kernel of the run's model
/// (kernels/stage/persistent_steps.hpp: PersistentSteps<Dims>), one cooperative kernel running
/// every step of it, its StepParams made on the device from the loop clock, which it advances.
#include "solver/executor/executor.hpp"

namespace simapp {

class PersistentExecutor final : public Executor {
 public:
  /// Works out the launch shape on the current device (persistent_grid: a bad_input Error when
  /// the device cannot run the kernel).
  explicit PersistentExecutor(const ExecutorContext& context);

  void prepare(long, const ChunkEnds&) override {}  // nothing to capture
  long advance(long completed, long batch, long steps_left) override;
  bool counts_steps_on_device() const override { return true; }
  ExecutorStats stats() const override { return stats_; }
  LaunchDescription launch_description() const override;

 private:
  const Stream& stream_;
  PersistentArguments arguments_;
  PersistentGrid grid_;
  ExecutorStats stats_;
};

}  // namespace simapp
