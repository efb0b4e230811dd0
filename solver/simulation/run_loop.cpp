#include "solver/simulation/run_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "foundation/host_clock.hpp"
#include "solver/diagnostics/finite_state.hpp"
#include "solver/output/output_schedule.hpp"

namespace simapp {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double progress_interval_seconds = 2.0;

/// Completes every output still being written on a thread (collective), adding the time it
/// took the host here, and the threads' time, to `result`.
void finish_outputs(const std::vector<ScheduledOutput>& outputs, RunResult& result) {
  const Clock::time_point begin = Clock::now();
  for (const ScheduledOutput& output : outputs)
    if (output.finish) {
      const ThreadedWriteTimes times = output.finish();
      result.output_thread_seconds += times.thread_seconds;
      result.output_waited_seconds += times.waited_seconds;
    }
  result.output_seconds += seconds_since(begin);
}

/// The diagnostics are reduced over every rank, so every rank knows the outcome; the outputs
/// still being written are completed before the error. The end's are checked so, never a
/// progress line's: those meet a blow-up at whatever step the wall clock puts the line, where
/// the health check (or an output's finite-state check) reports it at its own step and cell.
void check_finite(const Diagnostics& diagnostics, long step, const std::vector<ScheduledOutput>& outputs,
                  RunResult& result) {
  if (std::isfinite(diagnostics.mass) && std::isfinite(diagnostics.total_energy)) return;
  finish_outputs(outputs, result);
  throw Error(ExitCode::numerical, "step " + std::to_string(step),
              "the solution is no longer finite (mass or total energy is NaN/Inf)", ErrorReach::every_rank);
}

/// The outputs due at `step`.
std::vector<const ScheduledOutput*> due_at(const std::vector<ScheduledOutput>& outputs, long step) {
  std::vector<const ScheduledOutput*> due;
  for (const ScheduledOutput& output : outputs)
    if (output.steps.holds(step)) due.push_back(&output);
  return due;
}

/// Where the loop ends its chunks: at output and statistics steps, at multiples of
/// progress_every, and at the steps the health check follows where the host runs the steps
/// itself. The host then sees a failed check before it runs another step, so the run stops at
/// the check's own step, and saves the state there, whatever else cuts the run into chunks. A GPU
/// runs on while its host looks (without waiting, which would leave it idle): there the state
/// saved is that of the step the device has reached by then. `outputs` and `statistics` must
/// outlive the chunk ends.
ChunkEnds chunk_ends(const std::vector<ScheduledOutput>& outputs, const ScheduledStatistics& statistics,
                     int progress_every, const Simulation& simulation) {
  const int check_every = simulation.backend() == Backend::host ? simulation.spec().execution.check_every : 0;
  return [&outputs, &statistics, progress_every, check_every](long step) {
    long next = -1;
    const auto take = [&next](long end) {
      if (end > 0 && (next < 0 || end < next)) next = end;
    };
    for (const ScheduledOutput& output : outputs) take(output.steps.next_after(step));
    take(statistics.steps.next_after(step));
    for (const int every : {progress_every, check_every})
      if (every > 0) take((step / every + 1) * every);
    return next;
  };
}

/// A state copy queued at an output step and not yet written.
struct PendingOutput {
  long step = -1;
  double time = 0.0;
  std::vector<const ScheduledOutput*> outputs;
};

/// The first failed health check over the ranks (collective): the earliest check, then the
/// first cell (by variable, then row, then column), whatever the decomposition.
HealthFinding agreed_failure(Simulation& simulation) {
  const std::optional<HealthFinding> mine = simulation.health_failure();
  const Decomposition& decomposition = simulation.decomposition();
  const std::int64_t never = std::numeric_limits<std::int64_t>::max();
  std::int64_t step = mine ? mine->step : never;
  MPI_Allreduce(MPI_IN_PLACE, &step, 1, MPI_INT64_T, MPI_MIN, decomposition.comm());
  const GridSpec& grid = decomposition.global();
  std::int64_t cell = mine && mine->step == step ? mine->where.code(grid.nx, grid.nz, grid.ny) : never;
  MPI_Allreduce(MPI_IN_PLACE, &cell, 1, MPI_INT64_T, MPI_MIN, decomposition.comm());
  return {static_cast<long>(step), GlobalCell::of_code(cell, grid.nx, grid.nz, grid.ny)};
}

/// Whether a health check failed on some rank, as far as the hosts see now (collective when
/// there are several ranks).
bool failure_seen(const Simulation& simulation) {
  int seen = simulation.health_failure_seen() ? 1 : 0;
  if (simulation.spec().execution.check_every > 0 && simulation.decomposition().size() > 1)
    MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_MAX, simulation.decomposition().comm());
  return seen != 0;
}

/// Waits until no output reads the state copy collected last.
void release_state(const std::vector<ScheduledOutput>& outputs, RunResult& result) {
  const Clock::time_point begin = Clock::now();
  for (const ScheduledOutput& output : outputs)
    if (output.release) result.output_waited_seconds += output.release();
  result.output_seconds += seconds_since(begin);
}

/// Takes a copy of the state now, once no output reads the one it would overwrite.
void begin_copy(Simulation& simulation, const std::vector<ScheduledOutput>& outputs, RunResult& result) {
  if (simulation.copy_overwrites_collected_state()) release_state(outputs, result);
  simulation.begin_state_copy();
}

/// The state copy begun last, once no output reads the previous one any more.
std::span<const double> collect_state(Simulation& simulation, const std::vector<ScheduledOutput>& outputs,
                                      RunResult& result) {
  release_state(outputs, result);
  return simulation.finish_state_copy();
}

/// Writes the outputs queued at pending.step of `state`, the state copied there (it must be
/// finite; when it is not, the outputs still being written of earlier steps are completed
/// before the error, so that nothing written finite is lost). An output written at once (a checkpoint) waits until
/// every earlier one is complete, so it never replaces what an unfinished output might still fail to keep.
void write_outputs(const Simulation& simulation, const std::vector<ScheduledOutput>& outputs, PendingOutput& pending,
                   std::span<const double> state, RunResult& result) {
  try {
    require_finite_state(state, simulation.decomposition(), pending.step, pending.time);
  } catch (const Error&) {  // agreed: every rank completes what earlier outputs wrote, finite, before the error
    finish_outputs(outputs, result);
    throw;
  }
  for (const ScheduledOutput* output : pending.outputs) {
    if (!output->finish) finish_outputs(outputs, result);
    const Clock::time_point begin = Clock::now();
    output->write(pending.step, pending.time, state);
    result.output_seconds += seconds_since(begin);
  }
  pending = {};
}

/// Ends the run after a failed health check (collective): the outputs queued before the
/// failed check are written, the state where the run stands is saved, and the error names
/// the check's step, what it found and where.
[[noreturn]] void stop_unhealthy(Simulation& simulation, const std::vector<ScheduledOutput>& outputs,
                                 PendingOutput& pending, const FailedStateWriter& failed, RunResult& result) {
  const HealthFinding failure = agreed_failure(simulation);
  if (!pending.outputs.empty() && pending.step < failure.step)
    write_outputs(simulation, outputs, pending, collect_state(simulation, outputs, result), result);
  finish_outputs(outputs, result);
  simulation.begin_state_copy();
  const std::span<const double> state = simulation.finish_state_copy();
  const std::string written = failed ? failed(simulation.step(), simulation.time(), state) : std::string();
  const std::string where = written.empty() ? "no snapshot written (the run writes no results)"
                                            : fmt::format("the state at step {} is in {}", simulation.step(), written);
  throw Error(ExitCode::numerical,
              fmt::format("step {} (t = {:.6g} s)", failure.step, simulation.time_stepping().time_after(failure.step)),
              fmt::format("the health check failed: {} at cell {}; {}",
                          describe_finding(failure.where.variable, simulation.grid().spec().ny),
                          describe_cell(failure.where, simulation.grid().spec().ny), where),
              ErrorReach::every_rank);
}

/// Ends the run when a health check has failed on some rank, as far as the hosts see now.
void stop_if_unhealthy(Simulation& simulation, const std::vector<ScheduledOutput>& outputs, PendingOutput& pending,
                       const FailedStateWriter& failed, RunResult& result) {
  if (failure_seen(simulation)) stop_unhealthy(simulation, outputs, pending, failed, result);
}

/// Writes the outputs queued at pending.step once the state copy is done; by then every check
/// up to that step has reached the host, and a failed one ends the run instead. Counts the
/// writes and their host time into `result`.
void write_pending(Simulation& simulation, const std::vector<ScheduledOutput>& outputs, PendingOutput& pending,
                   const FailedStateWriter& failed, RunResult& result) {
  if (pending.outputs.empty()) return;
  const std::span<const double> state = collect_state(simulation, outputs, result);
  stop_if_unhealthy(simulation, outputs, pending, failed, result);
  result.outputs_written += static_cast<long>(pending.outputs.size());
  write_outputs(simulation, outputs, pending, state, result);
}

void queue_due_outputs(Simulation& simulation, const std::vector<ScheduledOutput>& outputs, PendingOutput& pending,
                       RunResult& result) {
  std::vector<const ScheduledOutput*> due = due_at(outputs, simulation.step());
  if (due.empty()) return;
  begin_copy(simulation, outputs, result);
  pending = {simulation.step(), simulation.time(), std::move(due)};
}

/// Why the ranks stop now, as bits: asked_to_stop when any of them was asked to, near_wall_limit
/// when rank 0's clock says so (collective).
constexpr int asked_to_stop = 1, near_wall_limit = 2;
int stop_agreed(const StopRequest& stop, const WallClockLimit& limit, const Simulation& simulation) {
  if (!stop.requested && !limit.active()) return 0;
  int why = stop.requested && stop.requested() ? asked_to_stop : 0;
  if (simulation.decomposition().rank() == 0 && limit.due(Clock::now())) why |= near_wall_limit;
  if (simulation.decomposition().size() > 1)
    MPI_Allreduce(MPI_IN_PLACE, &why, 1, MPI_INT, MPI_BOR, simulation.decomposition().comm());
  return why;
}

/// `outputs` with the time of each checkpoint write, and of each output written on a thread,
/// noted into `limit`.
std::vector<ScheduledOutput> timed_into(WallClockLimit& limit, std::vector<ScheduledOutput> outputs) {
  for (ScheduledOutput& output : outputs) {
    if (output.checkpoint)
      output.write = [&limit, write = output.write](long step, double time, std::span<const double> interior) {
        const Clock::time_point begin = Clock::now();
        write(step, time, interior);
        limit.note_checkpoint(seconds_since(begin));
      };
    if (output.finish)
      output.finish = [&limit, finish = output.finish] {
        const ThreadedWriteTimes times = finish();
        limit.note_output_wait(times.thread_seconds);
        return times;
      };
  }
  return outputs;
}

/// `stop` with the time of its save noted into `limit`.
StopRequest timed_into(WallClockLimit& limit, StopRequest stop) {
  if (stop.save)
    stop.save = [&limit, save = stop.save](long step, double time, std::span<const double> interior) {
      const Clock::time_point begin = Clock::now();
      save(step, time, interior);
      limit.note_checkpoint(seconds_since(begin));
    };
  return stop;
}

/// Saves the state at the current step for a restart, its host time counted as output.
void save_for_restart(Simulation& simulation, const std::vector<ScheduledOutput>& outputs, const StopRequest& stop,
                      RunResult& result) {
  finish_outputs(outputs, result);
  if (!stop.save) return;
  simulation.begin_state_copy();
  const std::span<const double> state = simulation.finish_state_copy();
  require_finite_state(state, simulation.decomposition(), simulation.step(), simulation.time());
  const Clock::time_point begin = Clock::now();
  stop.save(simulation.step(), simulation.time(), state);
  result.output_seconds += seconds_since(begin);
}

/// Takes the statistics due at the simulation's step and writes them, unless a health check up
/// to that step failed (the run then ends as a failed check does): they are waited for at once,
/// and by then every check before them has reached the host.
void take_statistics(Simulation& simulation, const ScheduledStatistics& statistics,
                     const std::vector<ScheduledOutput>& outputs, PendingOutput& pending,
                     const FailedStateWriter& failed, RunResult& result) {
  if (!statistics.steps.holds(simulation.step())) return;
  simulation.begin_statistics();
  const FlowStatistics taken = simulation.finish_statistics();
  stop_if_unhealthy(simulation, outputs, pending, failed, result);
  const Clock::time_point begin = Clock::now();
  statistics.write(simulation.step(), simulation.time(), taken);
  result.output_seconds += seconds_since(begin);
}

}  // namespace

RunResult run_to_end(Simulation& simulation, int progress_every, const ProgressCallback& on_progress,
                     const std::vector<ScheduledOutput>& scheduled, const std::optional<Diagnostics>& reference,
                     const StopRequest& requested_stop, const FailedStateWriter& failed,
                     const ScheduledStatistics& statistics) {
  WallClockLimit limit = requested_stop.limit;
  const std::vector<ScheduledOutput> outputs = limit.active() ? timed_into(limit, scheduled) : scheduled;
  const StopRequest stop = limit.active() ? timed_into(limit, requested_stop) : requested_stop;
  RunResult result;
  const ChunkEnds ends = chunk_ends(outputs, statistics, progress_every, simulation);
  simulation.prepare(ends);
  result.prepared = simulation.executor_stats();
  result.initial = reference ? *reference : simulation.diagnostics();
  const long first_step = simulation.step();
  const long num_steps = simulation.time_stepping().num_steps();
  const Clock::time_point start = Clock::now();
  double last_report = 0.0;
  PendingOutput pending;
  queue_due_outputs(simulation, outputs, pending, result);
  take_statistics(simulation, statistics, outputs, pending, failed, result);
  limit.note_chunks_start(Clock::now());
  // A checkpoint of a step before the end (scheduled, or saved to measure a stop), which the
  // end's supersedes.
  bool saved_before_end = std::ranges::any_of(outputs, [&](const ScheduledOutput& output) {
    const long first = output.steps.next_after(first_step);
    return output.checkpoint && first >= 0 && first < num_steps;
  });

  while (!simulation.finished()) {
    const long previous = simulation.step();
    // A chunk ends where the run needs the state next (chunk_ends): a progress line asked
    // every N steps shows a multiple of N.
    const long end = ends(previous);
    simulation.advance_chunk(end > 0 ? end - previous : std::numeric_limits<long>::max());
    stop_if_unhealthy(simulation, outputs, pending, failed, result);
    write_pending(simulation, outputs, pending, failed, result);  // while the chunk just queued runs
    queue_due_outputs(simulation, outputs, pending, result);
    take_statistics(simulation, statistics, outputs, pending, failed, result);
    const long step = simulation.step();
    // Reporting is collective: rank 0's clock decides for every rank.
    int due = progress_every > 0 ? step / progress_every > previous / progress_every
                                 : seconds_since(start) - last_report >= progress_interval_seconds;
    if (progress_every == 0) MPI_Bcast(&due, 1, MPI_INT, 0, simulation.decomposition().comm());
    if (due && !simulation.finished()) {
      const Diagnostics now = simulation.diagnostics();
      stop_if_unhealthy(simulation, outputs, pending, failed, result);
      const double wall = seconds_since(start);
      last_report = wall;
      const double rate = wall / static_cast<double>(step - first_step);
      on_progress({step, num_steps, simulation.time(), relative_change(result.initial, now), wall,
                   rate * static_cast<double>(num_steps - step)});
    }
    if (simulation.finished()) continue;
    limit.note_chunk_end(Clock::now());
    // What a stop costs is measured before the limit can be near: a checkpoint written now
    // (the same condition on every rank).
    if (limit.active() && stop.save && !limit.checkpoint_measured() && pending.outputs.empty()) {
      save_for_restart(simulation, outputs, stop, result);
      saved_before_end = true;
    }
    if (const int why = stop_agreed(stop, limit, simulation); why != 0) {
      write_pending(simulation, outputs, pending, failed, result);
      save_for_restart(simulation, outputs, stop, result);
      result.stopped = true;
      result.stopped_at_wall_limit = (why & asked_to_stop) == 0;
      break;
    }
  }
  simulation.synchronize();
  stop_if_unhealthy(simulation, outputs, pending, failed, result);
  write_pending(simulation, outputs, pending, failed, result);
  if (!result.stopped && stop.save && (stop.save_at_end || saved_before_end))
    save_for_restart(simulation, outputs, stop, result);
  finish_outputs(outputs, result);
  result.wall_seconds = seconds_since(start);
  result.steps = simulation.step() - first_step;
  result.final = simulation.diagnostics();
  check_finite(result.final, simulation.step(), outputs, result);
  result.change = relative_change(result.initial, result.final);
  return result;
}

}  // namespace simapp
