#pragma once
/// An executor is one execution mode (execution.mode): how the steps of a run are launched.
/// It advances the state by a run of steps from wherever the Simulation stands, and owns
/// whatever its mode needs for that (program runners, captured loop graphs, the persistent
/// kernel's arguments). Every executor queues the same stage work in the same order, so every
/// mode gives the same results bit for bit. make_executor (executor_factory.hpp) is the one
/// place that maps modes to executors.
#include <string>
#include <vector>

#include "kernels/time/loop_clock.hpp"
#include "solver/executor/chunk_programs.hpp"
#include "solver/executor/executor_stats.hpp"

namespace simapp {

/// What an executor works with, all of it owned by the Simulation and outliving the executor.
struct ExecutorContext {
  const Stream& stream;
  ChunkPrograms& chunks;
  LoopClock* loop_clock;  ///< the device's step count (graph_loop, persistent, --profile)
  TimeSchedule schedule;  ///< dt of every step, for StepParams<2> made on the device
  int steps_per_graph;    ///< K: the steps of a chunk
  std::size_t kernels_per_step;
};

/// How a mode launches steps, where its reports say more than the step programs do.
struct LaunchDescription {
  std::string summary;               ///< e.g. the persistent kernel's launch shape; empty: the step programs' kernels
  bool one_kernel_a_launch = false;  ///< one kernel runs many steps: its launches, not the programs' kernels, count
  int grid_barriers_per_step = 0;    ///< barriers of the kernel's blocks a step (grid-wide, or the cluster's)
};

class Executor {
 public:
  virtual ~Executor() = default;
  /// Captures every graph that the steps after `completed` take when the run also stops after
  /// each of `chunk_ends` (output steps, progress lines), so that nothing is captured while
  /// stepping; runs nothing.
  virtual void prepare(long completed, const ChunkEnds& chunk_ends) = 0;
  /// Queues the steps after step `completed`: at most `steps_left`, within the open batch of
  /// `batch` steps (QueuePacing; a mode that queues a chunk at a time takes one chunk);
  /// returns the steps queued.
  virtual long advance(long completed, long batch, long steps_left) = 0;
  /// Whether one launch runs a whole batch, the device counting its steps on the loop clock (a
  /// failed health check stops it early).
  virtual bool counts_steps_on_device() const { return false; }
  /// The steps a batch is made of (a loop body's, where one launch runs whole bodies).
  virtual long batch_granule() const { return 1; }
  virtual ExecutorStats stats() const = 0;
  virtual LaunchDescription launch_description() const { return {}; }
};

}  // namespace simapp
