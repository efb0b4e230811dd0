/// simapp: dry compressible atmosphere on CPU or GPU, driven by a YAML file; MPI across ranks.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "app/case_report.hpp"
#include "app/comparison_report.hpp"
#include "app/mpi_session.hpp"
#include "app/plan_report.hpp"
#include "app/profile_report.hpp"
#include "app/run_outputs.hpp"
#include "app/run_report.hpp"
#include "app/stop_signals.hpp"
#include "io/config/load_config.hpp"
#include "io/files/result_file.hpp"
#include "io/timing/timing_report.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/error.hpp"
#include "simapp_version.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/executor/step_executor.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/simulation/mode_support.hpp"
#include "solver/simulation/step_profile.hpp"

namespace {

using namespace simapp;

struct CommandLine {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string backend;
  std::string mode;
  bool validate_only = false;
  bool plan_only = false;
  bool profile = false;
  bool overwrite = false;
  std::string restart;  ///< checkpoint path or "latest"; empty: a fresh run
};

std::vector<std::string> execution_mode_choices() {
  std::vector<std::string> names;
  for (const auto& [mode, name] : execution_mode_names) names.emplace_back(name);
  return names;
}

/// What set-up produced: everything every rank agrees on before any work.
struct Setup {
  io::LoadedConfig config;
  Backend backend = Backend::host;
  std::string halo_reason;  ///< why parallel.halo is what it is (auto made concrete, or as configured)
};

/// Loads the configuration and picks the backend; errors here are the same on every rank.
Setup set_up(const CommandLine& command_line) {
  std::vector<std::string> overrides = command_line.overrides;
  if (!command_line.backend.empty()) overrides.push_back("execution.backend=" + command_line.backend);
  if (!command_line.mode.empty()) overrides.push_back("execution.mode=" + command_line.mode);
  Setup setup{io::load_config(command_line.config_path, overrides), Backend::host, {}};
  if (!command_line.restart.empty() && setup.config.spec.execution.mode == ExecutionMode::compare)
    throw Error(ExitCode::bad_input, "--restart", "cannot be combined with execution.mode compare");
  setup.backend = device::resolve_backend(setup.config.spec.execution.backend);
  halo_path(setup.backend, setup.config.spec.parallel);  // refuses nccl where it cannot run
  return setup;
}

/// Each rank takes GPU (node-local rank mod GPUs on the node); NCCL halos need them distinct.
void bind_devices(const Setup& setup, const Decomposition& decomposition) {
  if (setup.backend != Backend::cuda) return;
  device::select_device(app::node_local_rank() % device::device_count());
  if (setup.config.spec.parallel.halo == HaloTransport::nccl && decomposition.size() > 1)
    require_one_gpu_per_rank(decomposition.comm());
}

/// Makes parallel.halo concrete (auto: NCCL where the build has it, the backend is CUDA and
/// every rank has a GPU of its own, on every node; MPI otherwise) and keeps why, for the header.
void choose_halos(Setup& setup, const Decomposition& decomposition) {
  int own_gpu = setup.backend == Backend::cuda && app::node_local_size() <= device::device_count() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &own_gpu, 1, MPI_INT, MPI_MIN, decomposition.comm());
  HaloTransportChoice choice =
      choose_halo_transport(setup.config.spec.parallel.halo, setup.backend, decomposition.size(), own_gpu != 0);
  setup.config.spec.parallel.halo = choice.transport;
  setup.halo_reason = std::move(choice.reason);
}

/// Refuses a grid whose arrays do not fit in the memory of the processor each rank runs on
/// (shared by the ranks of a node, or of a GPU), before anything is allocated.
void require_memory(const Setup& setup, const Decomposition& decomposition) {
  const int sharing = setup.backend == Backend::cuda
                          ? (app::node_local_size() + device::device_count() - 1) / device::device_count()
                          : app::node_local_size();
  run_agreed(decomposition.comm(), [&] {
    const double needed = static_cast<double>(memory_needed(setup.config.spec, setup.backend, decomposition)) * sharing;
    const double available = static_cast<double>(device::available_memory(setup.backend));
    if (needed > available)
      throw Error(ExitCode::bad_input, "grid",
                  fmt::format("{} x {} cells need {:.3g} GB of {} memory{}, but {:.3g} GB are available (use more "
                              "ranks or a smaller grid)",
                              setup.config.spec.grid.nx, setup.config.spec.grid.nz, needed / 1e9,
                              setup.backend == Backend::cuda ? "GPU" : "host",
                              sharing > 1 ? fmt::format(" for the {} ranks sharing it", sharing) : std::string(),
                              available / 1e9));
  });
}

app::ExistingResults existing_results(const CommandLine& command_line) {
  if (!command_line.restart.empty()) return app::ExistingResults::continue_run;
  return command_line.overwrite ? app::ExistingResults::replace : app::ExistingResults::refuse;
}

int run_case(const Setup& setup, const Decomposition& decomposition, const CommandLine& command_line) {
  const RunSpec& spec = setup.config.spec;
  const bool root = decomposition.rank() == 0;
  const app::OutputStart start =
      app::plan_output(spec, existing_results(command_line), command_line.restart, decomposition.comm());
  if (start.finished) {
    if (root)
      fmt::print("{}: the run is complete (step {} of {}); nothing to do\n", start.checkpoint->string(), start.step,
                 start.step);
    return 0;
  }
  Simulation simulation(spec, setup.backend, spec.execution.mode, decomposition, start.origin);
  Diagnostics reference;  // the run's t = 0 diagnostics: a checkpoint carries them
  if (start.checkpoint) {
    reference = app::restore_checkpoint(simulation, start);
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
  app::take_over_output(spec, start, decomposition.comm());
  app::print_header(stdout, simulation, setup.config.source_path, setup.halo_reason);
  const bool writes_results = app::writes_results(spec);
  const StopRequest stop{app::stop_requested,
                         writes_results ? app::checkpoint_saver(setup.config, simulation, reference) : nullptr};
  const RunResult result = run_to_end(
      simulation, spec.output.progress_every,
      [root](const ProgressReport& report) {
        if (root) app::print_progress(stdout, report);
      },
      app::make_outputs(setup.config, simulation, reference), reference, stop,
      app::failed_state_writer(setup.config, simulation));
  if (!result.stopped) {
    app::print_result(stdout, simulation, result);
    app::report_case_measures(stdout, setup.config, simulation);
    return 0;
  }
  if (root)
    fmt::print("stopped by {} at step {} of {} (t = {} s); {}\n",
               *app::stop_signal_name() != '\0' ? app::stop_signal_name() : "a signal to another rank",
               simulation.step(), simulation.time_stepping().num_steps(), simulation.time(),
               writes_results ? fmt::format("checkpoint in '{}': continue with --restart latest", spec.output.dir)
                              : std::string("no checkpoint written (the run writes no results)"));
  return static_cast<int>(ExitCode::interrupted);
}

/// Where and on what a timed run ran, for its report.
io::TimingContext timing_context(const Setup& setup, const Decomposition& decomposition, const std::string& processor) {
  return {
      std::string(to_string(setup.backend)), processor, decomposition.size(), {decomposition.px(), decomposition.pz()}};
}

/// Writes a report made by `make` on rank 0 (its failure known to every rank) and says so.
void write_report(const Decomposition& decomposition, const std::filesystem::path& path,
                  const std::function<nlohmann::json()>& make) {
  run_on_root_agreed(decomposition.comm(), [&] {
    io::write_result_file(path, make().dump(2) + "\n");
    fmt::print("wrote {}\n", path.string());
  });
}

int compare(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite) {
  const RunSpec& spec = setup.config.spec;
  const bool root = decomposition.rank() == 0;
  const std::filesystem::path timing_path = std::filesystem::path(spec.output.dir) / "timing.json";
  run_on_root_agreed(decomposition.comm(), [&] { io::check_result_path(timing_path, overwrite); });
  const std::string processor = device::processor_name(setup.backend);
  if (root)
    fmt::print(
        "simapp {} compare: case {}, {} x {} cells, granularity {}, backend {} ({}), {} rank(s) as {} x {}, "
        "halos by {}\n",
        build_info::version, to_string(spec.case_name), spec.grid.nx, spec.grid.nz,
        to_string(spec.execution.granularity), to_string(setup.backend), processor, decomposition.size(),
        decomposition.px(), decomposition.pz(), to_string(spec.parallel.halo));
  const ModeComparison comparison = compare_modes(spec, setup.backend, decomposition, [root](ExecutionMode mode) {
    if (!root) return;
    fmt::print("running {} ...\n", to_string(mode));
    std::fflush(stdout);
  });
  if (root) app::print_comparison(stdout, comparison);
  write_report(decomposition, timing_path,
               [&] { return io::timing_json(spec, comparison, timing_context(setup, decomposition, processor)); });
  return comparison.identical ? 0 : static_cast<int>(ExitCode::numerical);
}

/// --profile: a few steps op by op against the device's copy bandwidth; table and profile.json.
int profile(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite) {
  const RunSpec& spec = setup.config.spec;
  const std::filesystem::path path = std::filesystem::path(spec.output.dir) / "profile.json";
  run_on_root_agreed(decomposition.comm(), [&] { io::check_result_path(path, overwrite); });
  Simulation simulation(spec, setup.backend, ExecutionMode::eager, decomposition);
  const StepProfile step = profile_steps(simulation, 2, 10);
  const std::string processor = device::processor_name(setup.backend);
  if (decomposition.rank() == 0) {
    fmt::print("simapp {} profile: case {}, {} x {} cells ({} on rank 0), granularity {}, backend {} ({})\n",
               build_info::version, to_string(spec.case_name), spec.grid.nx, spec.grid.nz, step.cells,
               to_string(spec.execution.granularity), to_string(setup.backend), processor);
    app::print_profile(stdout, step);
  }
  write_report(decomposition, path,
               [&] { return io::profile_json(spec, step, timing_context(setup, decomposition, processor)); });
  return 0;
}

int run(const app::MpiSession& mpi, const CommandLine& command_line) {
  std::optional<Setup> setup;
  std::optional<Decomposition> decomposition;
  try {
    setup = set_up(command_line);
    decomposition.emplace(MPI_COMM_WORLD, setup->config.spec.grid, setup->config.spec.parallel);
    choose_halos(*setup, *decomposition);
    if (const ExecutionMode mode = setup->config.spec.execution.mode; mode != ExecutionMode::compare)
      require_mode_can_run(mode, setup->config.spec, setup->backend, *decomposition);
    if (!command_line.plan_only) {
      bind_devices(*setup, *decomposition);
      require_memory(*setup, *decomposition);
    }
  } catch (const Error& e) {
    return mpi.uniform_error(e);
  }
  if (command_line.validate_only) {
    if (mpi.root()) fmt::print("{}: configuration is valid\n", command_line.config_path);
    return 0;
  }
  if (command_line.plan_only) {
    if (mpi.root()) app::print_plan(stdout, setup->config.spec, *decomposition, setup->backend);
    return 0;
  }
  try {
    const io::Overwrite overwrite = command_line.overwrite ? io::Overwrite::allow : io::Overwrite::refuse;
    if (command_line.profile) return profile(*setup, *decomposition, overwrite);
    if (setup->config.spec.execution.mode == ExecutionMode::compare) return compare(*setup, *decomposition, overwrite);
    return run_case(*setup, *decomposition, command_line);
  } catch (const Error& e) {
    return mpi.report(e);
  } catch (const std::exception& e) {
    return mpi.report(Error(ExitCode::internal, "internal", e.what()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"simapp: dry compressible atmosphere (stencil time stepping) on CPU or GPU"};
  CommandLine command_line;
  cli.add_option("config", command_line.config_path, "YAML configuration file (see inputs/README.md)");
  cli.add_option("--set", command_line.overrides, "Override a configuration key: --set grid.nx=200")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cli.add_option("--backend", command_line.backend, "Same as --set execution.backend=B")
      ->check(CLI::IsMember({"auto", "cuda", "host"}));
  cli.add_option("--mode", command_line.mode, "Same as --set execution.mode=M")
      ->check(CLI::IsMember(execution_mode_choices()));
  cli.add_flag("--validate", command_line.validate_only, "Check the configuration and exit");
  auto* profile_flag = cli.add_flag("--profile", command_line.profile,
                                    "Time a few steps kernel by kernel against the device's copy bandwidth "
                                    "(table, and profile.json in output.dir)");
  cli.add_flag("--plan", command_line.plan_only,
               "Print the step program (ops, kernels per step, segments, graphs) and exit");
  auto* overwrite = cli.add_flag("--overwrite", command_line.overwrite,
                                 "Replace results an earlier run left in output.dir (only files simapp wrote)");
  cli.add_option("--restart", command_line.restart,
                 "Continue from a checkpoint: its path, or 'latest' (the newest in output.dir; none: start at step 0)")
      ->type_name("PATH|latest")
      ->excludes(overwrite)
      ->excludes(profile_flag);
  cli.set_version_flag("--version", fmt::format("simapp {} (git {}, CUDA backend {})", build_info::version,
                                                build_info::git_hash, build_info::cuda ? "built" : "not built"));

  app::install_signal_handlers();  // before MPI starts: a SIGTERM from then on stops the run cleanly
  app::MpiSession mpi(argc, argv);
  try {
    cli.parse(argc, argv);
    if (command_line.config_path.empty()) throw CLI::RequiredError("config");
    if (command_line.restart.empty() && cli.count("--restart") > 0)
      throw CLI::ValidationError("--restart", "expects a checkpoint path or 'latest'");
  } catch (const CLI::CallForHelp& e) {
    return mpi.root() ? cli.exit(e) : 0;
  } catch (const CLI::CallForVersion& e) {
    return mpi.root() ? cli.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    return mpi.uniform_error(Error(ExitCode::bad_input, "command line", e.what()));
  }
  return run(mpi, command_line);
}
