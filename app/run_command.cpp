#include "app/run_command.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include <fmt/core.h>

#include "app/case_report.hpp"
#include "app/run_report.hpp"
#include "app/stop_signals.hpp"
#include "io/output/output_directory.hpp"
#include "io/output/run_outputs.hpp"
#include "kernels/backend/error.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::app {

int run_case(const Setup& setup, const Decomposition& decomposition, const CommandLine& command_line) {
  const RunSpec& spec = setup.config.spec;
  const bool root = decomposition.rank() == 0;
  std::optional<io::OwnedOutputDirectory> owned;  // before anything in it is read or removed
  if (io::writes_results(spec)) owned.emplace(spec.output.dir, decomposition.comm());
  const io::OutputStart start =
      io::plan_output(spec, existing_results(command_line), command_line.restart, decomposition.comm());
  if (start.finished) {
    if (root)
      fmt::print("{}: the run is complete (step {} of {}); nothing to do\n", start.checkpoint->string(), start.step,
                 start.step);
    return 0;
  }
  Simulation simulation(spec, setup.backend, spec.execution.mode, decomposition, start.origin);
  Diagnostics reference;  // the run's t = 0 diagnostics: a checkpoint carries them
  if (start.checkpoint) {
    reference = io::restore_checkpoint(simulation, start);
    if (root)
      fmt::print("restarting from {} at step {} (t = {} s){}\n", start.checkpoint->string(), simulation.step(),
                 simulation.time(),
                 start.origin.step > 0 ? "; that time is not on this run's step grid (a longer sim_time after a "
                                         "shortened last step): steps of dt continue from it, so the result differs "
                                         "from a run without the restart"
                                       : "");
  } else {
    reference = simulation.diagnostics();
    if (!command_line.restart.empty() && root)
      fmt::print("no checkpoint in '{}' to restart from: starting at step 0\n", spec.output.dir);
  }
  io::take_over_output(spec, start, decomposition.comm());
  print_header(stdout, simulation, setup.config.source_path, setup.halo_reason);
  const bool writes_results = io::writes_results(spec);
  const StopRequest stop{stop_requested,
                         writes_results ? io::checkpoint_saver(setup.config, simulation, reference) : nullptr,
                         WallClockLimit(setup.started, spec.execution.wall_limit)};
  const RunResult result = run_to_end(
      simulation, spec.output.progress_every,
      [root](const ProgressReport& report) {
        if (root) print_progress(stdout, report);
      },
      io::make_outputs(setup.config, simulation, reference), reference, stop,
      io::failed_state_writer(setup.config, simulation));
  if (!result.stopped) {
    print_result(stdout, simulation, result);
    report_case_measures(stdout, setup.config, simulation);
    return 0;
  }
  const std::string cause =
      result.stopped_at_wall_limit
          ? fmt::format("the wall-clock limit (execution.wall_limit {:g} s)", spec.execution.wall_limit)
          : std::string(*stop_signal_name() != '\0' ? stop_signal_name() : "a signal to another rank");
  if (root)
    fmt::print("stopped by {} at step {} of {} (t = {} s); {}\n", cause, simulation.step(),
               simulation.time_stepping().num_steps(), simulation.time(),
               writes_results ? fmt::format("checkpoint in '{}': continue with --restart latest", spec.output.dir)
                              : std::string("no checkpoint written (the run writes no results)"));
  return static_cast<int>(ExitCode::interrupted);
}

}  // namespace simapp::app
