#pragma once
/// One run of the model: set-up (grid, background, initial state, step programs) and
/// advancing in chunks of whole steps, each chunk one run of a chunk program by the
/// executor. Reporting and output are the caller's (see run_loop.hpp).
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_stream.hpp"
#include "kernels/stage/persistent_steps.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/diagnostics/diagnostics.hpp"
#include "solver/executor/graph_loop.hpp"
#include "solver/executor/step_executor.hpp"
#include "solver/grid/grid.hpp"
#include "solver/halo/halo_exchange.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/simulation/health_monitor.hpp"
#include "solver/simulation/queue_pacing.hpp"
#include "solver/simulation/state_copy.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

/// Bytes the arrays of a Simulation of `spec` on `backend` take on this rank (small ones aside).
std::size_t memory_needed(const RunSpec& spec, Backend backend, const Decomposition& decomposition);

class Simulation {
 public:
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  ~Simulation();
  /// `mode`: how steps are launched (not compare); a bad_input Error when it cannot run this
  /// case (require_mode_can_run). `origin`: where the time stepping's steps start (a restart off
  /// the step grid; restore() then continues from that step). Collective over the decomposition's
  /// ranks, which must outlive the simulation.
  Simulation(const RunSpec& spec, Backend backend, ExecutionMode mode, const Decomposition& decomposition,
             TimeOrigin origin = {});

  const RunSpec& spec() const { return spec_; }
  const Grid& grid() const { return grid_; }
  const Decomposition& decomposition() const { return decomposition_; }
  /// How halo messages travel between ranks.
  HaloPath halo_path() const { return halo_path_; }
  const TimeStepping& time_stepping() const { return time_stepping_; }
  Backend backend() const { return stream_.get().backend; }
  const Stream& stream() const { return stream_.get(); }
  ExecutionMode mode() const { return mode_; }
  int steps_per_graph() const { return steps_per_graph_; }
  /// persistent: how its kernel is launched.
  const PersistentGrid& persistent_launch() const { return persistent_grid_; }
  std::size_t kernels_per_step() const { return first_step_.count(OpKind::kernel); }
  /// What the executor did, with graph_loop's loop graphs counted as graphs.
  ExecutorStats executor_stats() const;

  long step() const { return step_; }                               ///< steps completed
  double time() const { return time_stepping_.time_after(step_); }  ///< s
  bool finished() const { return step_ >= time_stepping_.num_steps(); }

  /// Captures every graph the rest of the run uses (graph and graph_loop modes) when its
  /// chunks also end after each step in `chunk_ends` (ascending: output steps, progress
  /// lines), so that nothing is captured while stepping; runs nothing.
  void prepare(const std::vector<long>& chunk_ends = {});
  /// Runs the next chunk: min(steps_per_graph, steps left, max_steps) steps; in graph_loop
  /// mode up to min(steps left, max_steps, the pace), as a chunk up to a multiple of
  /// check_every, one launch of the loop graph (whole passes of its body) and a chunk for the
  /// rest (plan_loop_launch); in persistent mode min(steps left, max_steps, the pace) in one
  /// launch of the persistent kernel. Chunks are queued in batches of about half
  /// a second of device time, at most two ahead of the device (QueuePacing: the host may wait
  /// here; collective when a batch starts). Returns the steps run.
  long advance_chunk(long max_steps = std::numeric_limits<long>::max());
  /// Runs the next step (without the health check) op by op, each timed on the stream (CUDA events on the device, the
  /// host clock on the host) inside a profiler range of its name; returns the step's ops (joins left out) with their
  /// seconds.
  std::vector<std::pair<const StepOp*, double>> time_next_step();
  /// Back to the initial state at step 0; captured graphs are kept.
  void reset();
  /// Continues from a checkpoint: this rank's interior state [var][k][i] at `step`.
  void restore(long step, const std::vector<double>& interior);

  /// Whether a health check has failed, as far as the host can see without waiting.
  bool health_failure_seen() const { return health_.failure_seen(); }
  /// The first failed health check on this rank (waits for queued work; in graph_loop and
  /// persistent mode the step count becomes the device's, which a failed check stops early).
  std::optional<HealthFinding> health_failure();

  /// Takes a copy of this rank's interior state [var][k][i] without waiting: chunks queued
  /// afterwards run while the host later collects it with finish_state_copy(). On CUDA the
  /// copy is taken on the device (a fraction of a millisecond); on the host backend it is taken
  /// at once into the buffer finish_state_copy() returns, so whoever still reads that buffer
  /// must be done before (copy_overwrites_collected_state()).
  void begin_state_copy();
  /// Waits for the copy begun last and brings it to host memory: this rank's interior state
  /// [var][k][i], in one buffer kept for the run (the only host copy of the state outputs
  /// use), valid until the next begin_state_copy() on the host backend, the next
  /// finish_state_copy() on CUDA.
  std::span<const double> finish_state_copy();
  /// Whether begin_state_copy() writes the buffer finish_state_copy() returned (the host
  /// backend) rather than only the next finish_state_copy() (CUDA).
  bool copy_overwrites_collected_state() const { return state_copy_.overwrites_collected(); }

  /// Diagnostics of the current state (collective; waits for queued work).
  Diagnostics diagnostics() const;
  /// This rank's prognostic state, all cells with halos, q[var][k][i] (waits for queued work).
  std::vector<double> state_on_host() const;
  /// The global interior state [var][k][i] on rank 0, empty elsewhere (collective).
  std::vector<double> gathered_state() const;
  /// Waits for queued work.
  void synchronize() const { device::synchronize(stream_.get()); }

 private:
  /// The chunk program of `layout` (built on first use).
  const StepProgram& chunk_program(const ChunkLayout& layout);
  /// The layout of the `steps` steps after step `completed`, checked as the run checks them.
  ChunkLayout layout_after(long completed, int steps) const;
  /// Makes the StepParams slots of the next `steps` steps hold their values.
  void stage_step_params(int steps);
  /// Steps in the chunk that starts after `completed` steps.
  int chunk_steps(long completed) const;
  /// graph_loop: the loop graph whose body starts with parity `first` (captured on first use).
  const GraphLoop& loop_graph(StepParity first);
  /// graph_loop: runs `launch` from the current step.
  void advance_in_loop(const LoopLaunch& launch);
  /// graph_loop: runs the next `steps` steps (none, or at most a pass of the body) as one
  /// chunk, counting them on the loop clock.
  void run_chunk_beside_loop(long steps);
  /// graph and graph_loop: captures the chunk of the `steps` steps after step `completed`
  /// (none when 0); returns the step after them.
  long prepare_chunk(long completed, long steps);
  /// persistent: runs `steps` steps in one launch of the persistent kernel.
  void advance_persistent(long steps);
  /// Closes the batch of chunks being queued (QueuePacing).
  void end_batch();
  /// graph_loop and persistent: one launch runs many steps, counted on the device (the loop clock).
  bool loops_on_device() const { return mode_ == ExecutionMode::graph_loop || mode_ == ExecutionMode::persistent; }

  RunSpec spec_;
  ExecutionMode mode_;
  const Decomposition& decomposition_;
  Grid grid_;
  TimeStepping time_stepping_;
  OwnedStream stream_;
  HydrostaticProfile background_;
  Workspace workspace_;
  HaloPath halo_path_;
  StepParamsBlock params_;                  ///< as many slots as any K the run may choose (step_params_capacity)
  std::unique_ptr<NcclCommunicator> nccl_;  ///< the nccl path's communicator (when halos are exchanged)
  std::unique_ptr<HaloExchange> halo_x_, halo_z_;
  HealthMonitor health_;
  DeviceBuffer<LoopClock> loop_clock_;  ///< graph_loop: the device's step count
  LoopControl loop_control_[2];         ///< graph_loop: per body parity (odd, even)
  std::map<StepParity, StepProgram> loop_bodies_;
  std::map<StepParity, std::unique_ptr<GraphLoop>> loops_;
  ExecutorStats loop_stats_;        ///< graph_loop's loop graphs and persistent's kernels: captures, launches
  PersistentSteps persistent_;      ///< persistent: the kernel's arguments
  PersistentGrid persistent_grid_;  ///< persistent: its launch shape
  StepResources resources_;
  StepProgram first_step_;  ///< the run's first step, built with its buffers and counted
  int steps_per_graph_;     ///< K, from first_step_'s kernels and host ops
  LoopBody loop_body_;      ///< graph_loop: one pass of the WHILE body
  QueuePacing pacing_;      ///< how far the host queues ahead: batches of steps
  long batch_left_ = 0;     ///< steps the batch being queued still takes (0: none open)
  long batch_steps_ = 0;    ///< steps queued in it so far
  std::unique_ptr<StepExecutor> executor_;
  std::map<ChunkLayout, StepProgram> chunks_;  ///< stable addresses for the executor
  DiagnosticsReducer reducer_;
  StateCopy state_copy_;  ///< the interior state on the host, for outputs
  long step_ = 0;
};

}  // namespace simapp
