/// simapp: dry compressible atmosphere on CPU or GPU, driven by a YAML file.
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "app/run_report.hpp"
#include "io/config/load_config.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/error.hpp"
#include "simapp_version.hpp"

namespace {

struct CommandLine {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string backend;
  bool validate_only = false;
};

int run(const CommandLine& command_line) {
  using namespace simapp;
  std::vector<std::string> overrides = command_line.overrides;
  if (!command_line.backend.empty()) overrides.push_back("execution.backend=" + command_line.backend);
  const io::LoadedConfig config = io::load_config(command_line.config_path, overrides);
  if (command_line.validate_only) {
    fmt::print("{}: configuration is valid\n", command_line.config_path);
    return 0;
  }
  const Backend backend = device::resolve_backend(config.spec.execution.backend);
  Simulation simulation(config.spec, backend);
  app::print_header(stdout, simulation, command_line.config_path);
  const RunResult result = run_to_end(simulation, config.spec.output.progress_every,
                                      [](const ProgressReport& report) { app::print_progress(stdout, report); });
  app::print_result(stdout, simulation, result);
  return 0;
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
  cli.add_flag("--validate", command_line.validate_only, "Check the configuration and exit");
  cli.set_version_flag("--version", fmt::format("simapp {} (git {}, CUDA backend {})", simapp::build_info::version,
                                                simapp::build_info::git_hash,
                                                simapp::build_info::cuda ? "built" : "not built"));
  try {
    cli.parse(argc, argv);
    if (command_line.config_path.empty()) throw CLI::RequiredError("config");
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "simapp: error: command line: {}\n", e.what());
    return static_cast<int>(simapp::ExitCode::bad_input);
  }

  try {
    return run(command_line);
  } catch (const simapp::Error& e) {
    fmt::print(stderr, "simapp: error: {}: {}\n", e.where(), e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "simapp: error: internal: {}\n", e.what());
    return static_cast<int>(simapp::ExitCode::internal);
  }
}
