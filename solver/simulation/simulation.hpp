#pragma once
/// One run of the model: set-up (grid, background, initial state, step programs) and
/// advancing by runs of whole steps, each queued by the executor of the run's mode
/// (solver/executor/executor.hpp) in batches QueuePacing sets. The Simulation holds the model
/// state, its programs and the clock; how steps are launched is the executor's. Reporting and
/// output are the caller's (see run_loop.hpp).
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_stream.hpp"
#include "kernels/time/loop_clock.hpp"
#include "solver/column/column_background.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/diagnostics/diagnostics.hpp"
#include "solver/executor/executor.hpp"
#include "solver/grid/grid.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/model/model.hpp"
#include "solver/simulation/health_monitor.hpp"
#include "solver/simulation/queue_pacing.hpp"
#include "solver/simulation/state_copy.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/state/initial_theta_reference.hpp"
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
  /// the step grid; restore() then continues from that step). execution.granularity auto is made
  /// concrete (choose_granularity) where set-up has not. Collective over the decomposition's
  /// ranks, which must outlive the simulation.
  Simulation(const RunSpec& spec, Backend backend, ExecutionMode mode, const Decomposition& decomposition,
             TimeOrigin origin = {});

  const RunSpec& spec() const { return spec_; }  ///< its granularity concrete
  const Grid& grid() const { return grid_; }
  const Decomposition& decomposition() const { return decomposition_; }
  /// How halo messages travel between ranks.
  HaloPath halo_path() const { return halo_path_; }
  const TimeStepping& time_stepping() const { return time_stepping_; }
  Backend backend() const { return stream_.get().backend; }
  const Stream& stream() const { return stream_.get(); }
  ExecutionMode mode() const { return mode_; }
  int steps_per_graph() const { return steps_per_graph_; }
  /// How the mode launches steps, where it says more than the step programs do (persistent).
  LaunchDescription launch_description() const { return executor_->launch_description(); }
  std::size_t kernels_per_step() const { return model_->first_step().count(OpKind::kernel); }
  /// Where this rank's interior cells lie in the state array ([var][k][i], or [var][k][j][i]).
  const InteriorLayout& interior_layout() const { return model_->interior(); }
  /// What the executor did, with graph_loop's loop graphs counted as graphs.
  ExecutorStats executor_stats() const { return executor_->stats(); }

  long step() const { return step_; }                               ///< steps completed
  double time() const { return time_stepping_.time_after(step_); }  ///< s
  bool finished() const { return step_ >= time_stepping_.num_steps(); }

  /// Captures every graph the rest of the run uses (graph and graph_loop modes) when its
  /// chunks also end after each of `chunk_ends` (output steps, progress lines), so that
  /// nothing is captured while stepping; runs nothing.
  void prepare(const ChunkEnds& chunk_ends = {});
  /// Queues the next run of steps, at most `max_steps`, as the executor takes them: a chunk of
  /// min(steps_per_graph, steps left) steps; in graph_loop and persistent mode the whole batch
  /// in one launch (graph_loop_executor.hpp, persistent_executor.hpp). Steps are queued in
  /// batches of about half a second of device time, at most two ahead of the device
  /// (QueuePacing: the host may wait here; collective when a batch starts). Returns the steps
  /// queued.
  long advance_chunk(long max_steps = std::numeric_limits<long>::max());
  /// Runs the next step and the elements that follow every step (the microphysics at its default cadence; not the
  /// health check) op by op, each timed on the stream (CUDA events on the device, the host clock on the host) inside
  /// a profiler range of its name; returns the ops (joins left out) with their seconds.
  std::vector<std::pair<const StepOp*, double>> time_next_step();
  /// Back to the initial state at step 0; captured graphs are kept.
  void reset();
  /// Continues from a checkpoint: this rank's interior state [var][k][i] ([var][k][j][i]) at `step`
  /// and, in a run with water, its surface fields (surface_water_on_host()'s layout; none given:
  /// they stay as they are).
  void restore(long step, const std::vector<double>& interior, std::span<const double> surface = {});

  /// Whether a health check has failed, as far as the host can see without waiting.
  bool health_failure_seen() const { return health_.failure_seen(); }
  /// The first failed health check on this rank (waits for queued work; in graph_loop and
  /// persistent mode the step count becomes the device's, which a failed check stops early).
  std::optional<HealthFinding> health_failure();

  /// Takes a copy of this rank's interior state [var][k][i] (and its surface fields, copied_surface()) without waiting:
  /// chunks queued afterwards run while the host later collects it with finish_state_copy(). On CUDA the copy is taken
  /// on the device (a fraction of a millisecond); on the host backend it is taken at once into the buffer
  /// finish_state_copy() returns, so whoever still reads that buffer must be done before
  /// (copy_overwrites_collected_state()).
  void begin_state_copy();
  /// Waits for the copy begun last and brings it to host memory: this rank's interior state
  /// [var][k][i], in one buffer kept for the run (the only host copy of the state outputs
  /// use), valid until the next begin_state_copy() on the host backend, the next
  /// finish_state_copy() on CUDA.
  std::span<const double> finish_state_copy();
  /// Whether begin_state_copy() writes the buffer finish_state_copy() returned (the host
  /// backend) rather than only the next finish_state_copy() (CUDA).
  bool copy_overwrites_collected_state() const { return state_copy_.overwrites_collected(); }
  /// The surface fields of the microphysics (surface_water_on_host()'s layout) copied with the
  /// interior state finish_state_copy() returned last, valid as long as it; empty in a dry run.
  std::span<const double> copied_surface() const { return state_copy_.surface(); }

  /// Diagnostics of the current state (collective; waits for queued work).
  Diagnostics diagnostics() const;
  /// Queues the reduction of the current state's statistics (FlowStatistics) on the backend,
  /// without waiting and without copying the state; the chunks queued after it may run at once.
  void begin_statistics() const { model_->begin_statistics(stream_.get()); }
  /// The statistics begin_statistics() queued last (collective; waits for them, and so for
  /// every step queued before them).
  FlowStatistics finish_statistics() const { return model_->finish_statistics(); }
  /// This rank's prognostic state, all cells with halos, q[var][k][i] (waits for queued work).
  std::vector<double> state_on_host() const;
  /// The global interior state [var][k][i] on rank 0, empty elsewhere (collective).
  std::vector<double> gathered_state() const;
  /// This rank's surface fields of the microphysics (Model::surface_water_on_host); empty in a dry run.
  std::vector<double> surface_water_on_host() const { return model_->surface_water_on_host(stream_.get()); }
  /// Waits for queued work.
  void synchronize() const { device::synchronize(stream_.get()); }

 private:
  RunSpec spec_;
  ExecutionMode mode_;
  const Decomposition& decomposition_;
  Grid grid_;
  TimeStepping time_stepping_;
  OwnedStream stream_;
  std::optional<ColumnBackground> column_;  ///< the background integrated from a sounding, if any
  HydrostaticProfile background_;
  InitialThetaReference theta_reference_;  ///< θ₀ − θ̄ with physics.diffusion_reference: initial_state
  HaloPath halo_path_;
  HealthMonitor health_;
  DeviceBuffer<LoopClock> loop_clock_;  ///< the device's step count (graph_loop, persistent, --profile)
  std::unique_ptr<Model> model_;        ///< the arrays, step values and chunk programs of the 2-D or 3-D model
  int steps_per_graph_;                 ///< K, from the model's first step's kernels and host ops
  std::unique_ptr<Executor> executor_;
  QueuePacing pacing_;    ///< how far the host queues ahead: batches of steps
  StateCopy state_copy_;  ///< the interior state on the host, for outputs
  long step_ = 0;
};

}  // namespace simapp
