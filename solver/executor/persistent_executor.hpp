#pragma once
/// execution.mode persistent and persistent_cluster: a batch is one launch of the persistent
/// kernel of the run's model (kernels/stage/persistent_steps.hpp: PersistentSteps<Dims>), one
/// kernel running every step of it, its StepParams made on the device from the loop clock, which
/// it advances: a cooperative kernel over the whole GPU, or one thread-block cluster.
#include "solver/executor/executor.hpp"

namespace simapp {

class PersistentExecutor final : public Executor {
 public:
  /// Works out the launch shape on the current device for the kernel's residency (persistent_grid:
  /// a bad_input Error when the device cannot run the kernel).
  PersistentExecutor(const ExecutorContext& context, Residency residency);

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
