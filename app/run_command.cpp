#include "app/run_command.hpp"

#include <optional>
#include <string>

#include <fmt/core.h>

#include "app/case_report.hpp"
#include "app/run_report.hpp"
#include "app/stop_signals.hpp"
#include "foundation/error.hpp"
#include "io/output/output_session.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::app {

namespace {

/// What the summary knows before the run starts: the configuration, the backend, the ranks and
/// the time stepping.
void describe_run(io::RunSummary& summary, const Setup& setup, const Decomposition& decomposition) {
  const RunSpec& spec = setup.config.spec;
  summary.spec = spec;
  summary.config_path = setup.config.source_path;
  summary.backend = std::string(to_string(setup.backend));
  summary.halo = fmt::format("{} ({})", to_string(spec.parallel.halo), setup.halo_reason);
  summary.granularity = describe_granularity(setup);
  summary.layout = {decomposition.px(), decomposition.pz()};
  const TimeStepping stepping = io::run_time_stepping(spec);
  summary.dt = stepping.dt();
  summary.dt_last = stepping.dt_last();
  summary.total_steps = stepping.num_steps();
}

}  // namespace

int run_case(const Setup& setup, const Decomposition& decomposition, const CommandLine& command_line,
             RunRecord& record) {
  const RunSpec& spec = setup.config.spec;
  const MPI_Comm comm = decomposition.comm();
  const bool root = decomposition.rank() == 0;
  io::RunLog& log = record.log();
  io::RunSummary& summary = record.summary();
  describe_run(summary, setup, decomposition);
  // Before anything in output.dir is read or removed, its lock; a restart's log and run.json
  // continue the run's, a fresh run's follow the take-over below.
  io::OutputSession& output = record.open_output(setup.config, comm);
  const bool writes_results = output.writes_results();
  const RecordStart record_start = command_line.restart.empty() ? RecordStart::fresh : RecordStart::continued;
  if (!writes_results)
    record.write_nowhere();
  else if (record_start == RecordStart::continued)
    record.write_into_directory(record_start, comm);
  const io::OutputStart& start = output.plan(existing_results(command_line), command_line.restart);
  if (start.finished) {
    const std::string complete = fmt::format("{}: the run is complete (step {} of {}); nothing to do",
                                             start.checkpoint->string(), start.step, start.step);
    if (root) log.print(complete);
    record.end(ExitCode::success, complete, SummaryFile::keep);
    return 0;
  }
  Simulation simulation(spec, setup.backend, spec.execution.mode, decomposition, start.origin);
  const Diagnostics& reference = output.begin(simulation);  // the run's t = 0 diagnostics
  if (start.checkpoint) {
    summary.restarted_from = start.checkpoint->string();
    if (root)
      log.print(fmt::format("restarting from {} at step {} (t = {:.6g} s){}", start.checkpoint->string(),
                            simulation.step(), simulation.time(),
                            start.origin.step > 0
                                ? "; that time is not on this run's step grid (a longer sim_time after a shortened "
                                  "last step): steps of dt continue from it, so the result differs from a run "
                                  "without the restart"
                                : ""));
  } else if (!command_line.restart.empty() && root) {
    log.print(fmt::format("no checkpoint in '{}' to restart from: starting at step 0", spec.output.dir));
  }
  summary.dt = simulation.time_stepping().dt();
  summary.dt_last = simulation.time_stepping().dt_last();
  summary.total_steps = simulation.time_stepping().num_steps();
  summary.first_step = simulation.step();
  if (writes_results && record_start == RecordStart::fresh) record.write_into_directory(record_start, comm);
  summary.placements = gather_placements(simulation);
  print_header(log, simulation, summary.placements, setup.config.source_path, setup.halo_reason,
               describe_granularity(setup), describe_mode(setup));
  const StopRequest stop{stop_requested, output.stop_saver(), WallClockLimit(setup.started, spec.execution.wall_limit),
                         /*save_at_end=*/!command_line.restart.empty()};
  RunResult result;
  try {
    result = run_to_end(
        simulation, spec.output.progress_every,
        [root, &log, &summary, &grid = spec.grid](const ProgressReport& report) {
          summary.last_progress = {report.step,
                                   report.time,
                                   report.change.mass,
                                   report.change.total_energy,
                                   tracer_changes(grid, report.change),
                                   report.change.water};
          if (root) print_progress(log, report, grid);
        },
        output.outputs(), reference, stop, output.failed_state_writer(), output.statistics());
    output.finish_statistics();
  } catch (...) {
    output.finish_statistics_after_error();  // the rows up to the error, for a look at how it came
    summary.last_step = simulation.step();
    throw;
  }
  const io::RunTimings timings = reduce_timings(simulation, result);
  summary.timings = timings;
  summary.last_step = simulation.step();
  summary.d_mass = result.change.mass;
  summary.d_te = result.change.total_energy;
  summary.d_mass_tracers = tracer_changes(spec.grid, result.change);
  summary.water = result.change.water;
  const long num_steps = simulation.time_stepping().num_steps();
  if (!result.stopped) {
    print_result(log, simulation, result, timings);
    report_case_measures(log, setup.config, simulation);
    record.end(ExitCode::success, fmt::format("completed: step {} of {}", simulation.step(), num_steps));
    return 0;
  }
  const std::string cause =
      result.stopped_at_wall_limit
          ? fmt::format("the wall-clock limit (execution.wall_limit {:g} s)", spec.execution.wall_limit)
          : std::string(*stop_signal_name() != '\0' ? stop_signal_name() : "a signal to another rank");
  const std::string stopped = fmt::format(
      "stopped by {} at step {} of {} (t = {:.6g} s); {}", cause, simulation.step(), num_steps, simulation.time(),
      writes_results ? fmt::format("checkpoint in '{}': continue with --restart latest", spec.output.dir)
                     : std::string("no checkpoint written (the run writes no results)"));
  if (root) log.print(stopped);
  record.end(ExitCode::interrupted, stopped);
  return static_cast<int>(ExitCode::interrupted);
}

}  // namespace simapp::app
