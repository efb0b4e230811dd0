/// simapp: dry compressible atmosphere on CPU or GPU, driven by a YAML file.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "app/comparison_report.hpp"
#include "app/plan_report.hpp"
#include "app/run_report.hpp"
#include "io/config/load_config.hpp"
#include "io/output/result_file.hpp"
#include "io/timing/timing_report.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/error.hpp"
#include "simapp_version.hpp"

namespace {

using namespace simapp;

struct CommandLine {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string backend;
  std::string mode;
  bool validate_only = false;
  bool plan_only = false;
  bool overwrite = false;
};

int run_case(const io::LoadedConfig& config, Backend backend) {
  Simulation simulation(config.spec, backend, config.spec.execution.mode);
  app::print_header(stdout, simulation, config.source_path);
  const RunResult result = run_to_end(simulation, config.spec.output.progress_every,
                                      [](const ProgressReport& report) { app::print_progress(stdout, report); });
  app::print_result(stdout, simulation, result);
  return 0;
}

int compare(const io::LoadedConfig& config, Backend backend, io::Overwrite overwrite) {
  const std::filesystem::path timing_path = std::filesystem::path(config.spec.output.dir) / "timing.json";
  io::check_result_path(timing_path, overwrite);
  const std::string processor = device::processor_name(backend);
  fmt::print("simapp {} compare: case {}, {} x {} cells, granularity {}, backend {} ({})\n", build_info::version,
             to_string(config.spec.case_name), config.spec.grid.nx, config.spec.grid.nz,
             to_string(config.spec.execution.granularity), to_string(backend), processor);
  const ModeComparison comparison = compare_modes(config.spec, backend, [](ExecutionMode mode) {
    fmt::print("running {} ...\n", to_string(mode));
    std::fflush(stdout);
  });
  app::print_comparison(stdout, comparison);
  const auto json = io::timing_json(config.spec, comparison, {std::string(to_string(backend)), processor});
  io::write_result_file(timing_path, json.dump(2) + "\n");
  fmt::print("wrote {}\n", timing_path.string());
  return comparison.identical ? 0 : static_cast<int>(ExitCode::numerical);
}

int run(const CommandLine& command_line) {
  std::vector<std::string> overrides = command_line.overrides;
  if (!command_line.backend.empty()) overrides.push_back("execution.backend=" + command_line.backend);
  if (!command_line.mode.empty()) overrides.push_back("execution.mode=" + command_line.mode);
  const io::LoadedConfig config = io::load_config(command_line.config_path, overrides);
  if (command_line.validate_only) {
    fmt::print("{}: configuration is valid\n", command_line.config_path);
    return 0;
  }
  if (command_line.plan_only) {
    app::print_plan(stdout, config.spec);
    return 0;
  }
  const Backend backend = device::resolve_backend(config.spec.execution.backend);
  if (config.spec.execution.mode == ExecutionMode::compare)
    return compare(config, backend, command_line.overwrite ? io::Overwrite::allow : io::Overwrite::refuse);
  return run_case(config, backend);
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
      ->check(CLI::IsMember({"eager_sync", "eager", "graph", "compare"}));
  cli.add_flag("--validate", command_line.validate_only, "Check the configuration and exit");
  cli.add_flag("--plan", command_line.plan_only,
               "Print the step program (ops, kernels per step, segments, graphs) and exit");
  cli.add_flag("--overwrite", command_line.overwrite, "Replace existing result files");
  cli.set_version_flag("--version", fmt::format("simapp {} (git {}, CUDA backend {})", build_info::version,
                                                build_info::git_hash, build_info::cuda ? "built" : "not built"));
  try {
    cli.parse(argc, argv);
    if (command_line.config_path.empty()) throw CLI::RequiredError("config");
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "simapp: error: command line: {}\n", e.what());
    return static_cast<int>(ExitCode::bad_input);
  }

  try {
    return run(command_line);
  } catch (const Error& e) {
    fmt::print(stderr, "simapp: error: {}: {}\n", e.where(), e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "simapp: error: internal: {}\n", e.what());
    return static_cast<int>(ExitCode::internal);
  }
}
