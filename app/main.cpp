/// simapp: compressible atmosphere, dry or with warm rain, on CPU or GPU, driven by a YAML file; MPI across ranks.
/// The composition root: parses the command line, sets the run up, and hands it to the command
/// it asks for.
#include <chrono>
#include <cstdio>
#include <new>
#include <optional>
#include <variant>

#include <fmt/core.h>

#include "app/command_line.hpp"
#include "app/mpi_session.hpp"
#include "app/plan_report.hpp"
#include "app/run_command.hpp"
#include "app/run_record.hpp"
#include "app/setup.hpp"
#include "app/standard_output.hpp"
#include "app/stop_signals.hpp"
#include "app/timed_commands.hpp"
#include "app/validate_report.hpp"
#include "foundation/error.hpp"
#include "io/config/load_config.hpp"
#include "io/output/run_outputs.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/executor/executor_factory.hpp"

namespace {

using namespace simapp;
using namespace simapp::app;

/// Sets the job up and runs the command asked for; every error, set-up included, is reported
/// as MpiSession::report says (set-up errors are agreed, so printed once), through the run's
/// record (its log and run.json, once the run writes into output.dir).
int run(const MpiSession& mpi, const CommandLine& command_line, std::chrono::steady_clock::time_point started,
        RunRecord& record) {
  const auto report = [&](const Error& error) {
    return mpi.report(error, [&](const std::string& line) { record.fail(error.code(), line); });
  };
  try {
    if (command_line.print_config) {
      const io::LoadedConfig config = load_configuration(command_line);
      if (mpi.root()) std::fputs(io::every_key_yaml(config.spec).c_str(), stdout);
      return 0;
    }
    Setup setup = set_up(command_line, started);
    std::optional<Decomposition> decomposition;
    // Its checks depend on what every rank holds alike, so every rank throws before MPI_Cart_create, or none.
    run_agreed(MPI_COMM_WORLD,
               [&] { decomposition.emplace(MPI_COMM_WORLD, setup.config.spec.grid, setup.config.spec.parallel); });
    choose_halos(setup, *decomposition);
    choose_granularity(setup, *decomposition);
    choose_mode(setup, *decomposition);
    if (const ExecutionMode mode = setup.config.spec.execution.mode; mode != ExecutionMode::compare)
      run_agreed(decomposition->comm(),
                 [&] { require_mode_can_run(mode, setup.config.spec, setup.backend, *decomposition); });
    if (command_line.plan_only) {
      if (mpi.root())
        print_plan(stdout, setup.config.spec, *decomposition, setup.backend, describe_granularity(setup),
                   describe_mode(setup));
      return 0;
    }
    bind_devices(setup, *decomposition);
    const MemoryUse memory = require_memory(setup, *decomposition);
    if (command_line.validate_only) {
      check_output_dir(setup, command_line, *decomposition);
      const std::string restart =
          command_line.restart.empty()
              ? ""
              : "; " + io::check_restart(setup.config.spec, command_line.restart, *decomposition);
      if (mpi.root()) print_validation(stdout, command_line.config_path, setup, *decomposition, memory, restart);
      return 0;
    }
    const io::Overwrite overwrite = command_line.overwrite ? io::Overwrite::allow : io::Overwrite::refuse;
    if (command_line.profile) return profile(setup, *decomposition, overwrite);
    if (setup.config.spec.execution.mode == ExecutionMode::compare) return compare(setup, *decomposition, overwrite);
    return run_case(setup, *decomposition, command_line, record);
  } catch (const Error& e) {
    return report(e);
  } catch (const std::bad_alloc&) {
    return report(out_of_memory_error());
  } catch (const std::exception& e) {
    return report(Error(ExitCode::internal, "internal", e.what()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
  const auto started_at = std::chrono::system_clock::now();
  install_signal_handlers();  // before MPI starts: a SIGTERM from then on stops the run cleanly
  keep_running_when_stdout_closes();
  MpiSession mpi(argc, argv);
  JobArguments arguments(mpi, argc, argv);
  const std::variant<CommandLine, int> parsed = parse_command_line(arguments.argc(), arguments.argv(), mpi);
  if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
  RunRecord record(mpi, arguments.words(), started_at);
  return run(mpi, std::get<CommandLine>(parsed), started, record);
}
