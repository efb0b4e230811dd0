#pragma once
/// The run loop: advances a Simulation to its end, reporting progress on a schedule
/// (every N steps, or about every 2 s of wall time) and checking the solution stays finite.
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "solver/output/output_schedule.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/simulation/wall_clock_limit.hpp"

namespace simapp {

struct ProgressReport {
  long step = 0;
  long num_steps = 0;
  double time = 0.0;          ///< simulated, s
  DiagnosticsChange change;   ///< since the start
  double wall_seconds = 0.0;  ///< since the loop started
  double eta_seconds = 0.0;   ///< estimated wall time to the end
};

struct RunResult {
  Diagnostics initial;
  Diagnostics final;
  DiagnosticsChange change;
  long steps = 0;
  double wall_seconds = 0.0;  ///< from the first step to the final synchronization, output included
  /// Of wall_seconds, the host's time on outputs (snapshots, checkpoints), each moment counted
  /// once: time in which it queued no steps.
  double output_seconds = 0.0;
  long outputs_written = 0;            ///< scheduled outputs written
  double output_thread_seconds = 0.0;  ///< outputs' time on writer threads, while the steps went on
  double output_waited_seconds = 0.0;  ///< of output_seconds, the time spent waiting for those threads
  bool stopped = false;                ///< ended early, at simulation.step(): asked to, or at the wall limit
  bool stopped_at_wall_limit = false;  ///< of those, ended by execution.wall_limit
  ExecutorStats prepared;              ///< the executor's work before the first step (captures, instantiations)
};

/// Writes the state where a failed health check stopped the run, for inspection (collective);
/// returns what it wrote, for the error message ("" when nothing).
using FailedStateWriter = std::function<std::string(long step, double time, std::span<const double> interior)>;

using ProgressCallback = std::function<void(const ProgressReport&)>;

/// Time an output spent on a writer thread, and how much of it the caller waited for.
struct ThreadedWriteTimes {
  double thread_seconds = 0.0;
  double waited_seconds = 0.0;
};

/// Output taken at chosen steps (step 0 included when the schedule holds it).
struct ScheduledOutput {
  OutputSchedule steps;  ///< those after the step the run starts from
  /// Called on every rank (it may be collective) with this rank's interior state [var][k][i].
  /// It may leave the output unfinished (being written on a thread, from `interior`, which
  /// stays unchanged until `release` is called).
  std::function<void(long step, double time, std::span<const double> interior)> write;
  /// When set: completes what `write` left unfinished (collective) and says how long that took
  /// a thread. The loop calls it before an output written at once, on stopping, and at the end.
  std::function<ThreadedWriteTimes()> finish;
  /// When set: waits until what `write` left unfinished no longer reads `interior` (this rank
  /// only), returning the seconds it waited. The loop calls it before the state copy changes.
  std::function<double()> release;
  /// Whether this output is a checkpoint: what a stop writes, so its time is what stopping costs.
  bool checkpoint = false;
};

/// Statistics of the flow (FlowStatistics) taken at chosen steps (step 0 included when the schedule holds it):
/// an output of its own kind, reduced where the state is, in stream order after the step, with
/// no copy of the state. The loop waits for them at once (a short wait at the step's chunk end
/// for the device to finish the chunk), so that the statistics of a step are written exactly
/// when no health check up to that step failed, whatever the timing.
struct ScheduledStatistics {
  OutputSchedule steps;
  /// Called on every rank (it may be collective) with the statistics at `step`, the same on
  /// every rank.
  std::function<void(long step, double time, const FlowStatistics& statistics)> write;
};

/// When to end the run early, asked at every chunk end: on request (a batch system's SIGTERM,
/// say), or before a wall-clock limit.
struct StopRequest {
  /// Whether this rank was asked to stop; the ranks stop together when any of them was.
  std::function<bool()> requested;
  /// Called on every rank (it may be collective) with this rank's interior state at the step
  /// where the run stops, after the outputs due there: to save it for a restart. Unless a
  /// checkpoint output has been timed by then, also after the first chunk, to measure what a stop
  /// costs (`limit` active only); and at the run's last step when a checkpoint of an earlier
  /// step was written (that one, or a checkpoint output) or `save_at_end` is set, so that no
  /// checkpoint of an earlier step outlives the run and its own state says it is complete
  /// (`--restart latest` then has nothing to do).
  std::function<void(long step, double time, std::span<const double> interior)> save;
  /// The wall-clock limit (rank 0's clock decides for every rank).
  WallClockLimit limit;
  /// Whether `save` is called at the run's last step anyway: a run asked to continue
  /// (`--restart`), from a checkpoint or from none, so that the next continuation finds it complete.
  bool save_at_end = false;
};

/// Prepares (captures every graph the run will use, knowing where its chunks end) and runs
/// every remaining step. Progress is reported at chunk ends:
/// progress_every > 0: when a multiple of that many steps is passed; 0: about every 2 s of
/// wall time. Chunks end at output steps; there the state is copied out without stopping the
/// device, and written while the next chunk runs (and, for outputs that leave their writing to a
/// thread, while further chunks run, until the next output step); the state is checked to be finite before
/// anything is written (require_finite_state). At every chunk end the health check's host
/// mirror is looked at without waiting; when a check failed on any rank, the outputs of the
/// steps before it are written, `failed` saves the state where the run stands, and
/// Error(ExitCode::numerical) names the check's step and finding. Throws that error too when
/// a state an output is given, or the mass or energy at the end, is not finite; a progress
/// line shows the diagnostics as they are and never ends the run. On the host backend chunks
/// also end after the steps the health check follows, so a failed check stops the run there.
/// On a stop request the loop ends after the chunk that is running, writes what is due, saves
/// the state and returns with `stopped` set; likewise when the wall-clock limit is near
/// (`stopped_at_wall_limit` set too).
/// `reference`: the diagnostics changes are relative to (default: the current state's; a
/// restarted run passes its original t = 0 values). `statistics`: written at their steps, which
/// end chunks as output steps do; a step's statistics are taken before a stop's checkpoint there.
RunResult run_to_end(Simulation& simulation, int progress_every, const ProgressCallback& on_progress,
                     const std::vector<ScheduledOutput>& outputs = {},
                     const std::optional<Diagnostics>& reference = std::nullopt, const StopRequest& stop = {},
                     const FailedStateWriter& failed = {}, const ScheduledStatistics& statistics = {});

}  // namespace simapp
