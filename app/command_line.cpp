#include "app/command_line.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "foundation/error.hpp"
#include "simapp_version.hpp"
#include "solver/spec/execution_mode.hpp"

namespace simapp::app {

namespace {

std::vector<std::string> execution_mode_choices() {
  std::vector<std::string> names;
  for (const auto& [mode, name] : execution_mode_names) names.emplace_back(name);
  return names;
}

/// What --help ends with: whole commands, the exit codes, and where the rest is documented.
std::string help_footer() {
  std::string text = R"(
Examples:
  simapp inputs/case.yaml                           run the case; results in output.dir
  simapp inputs/case.yaml --set grid.nx=800 --set grid.nz=400 --set output.dir=out/fine
  simapp inputs/case.yaml --validate                check it: steps, ranks, memory, output.dir
  simapp inputs/case.yaml --print-config > my.yaml  every key with its value; edit and run my.yaml
  mpirun -n 4 simapp inputs/thermal3d.yaml          4 MPI ranks (the 3-D model)
  simapp inputs/case.yaml --restart latest          continue from output.dir's newest checkpoint
  simapp inputs/case.yaml --mode compare            time every execution mode (timing.json)

Exit codes:
)";
  // By exit code, what each meaning covers.
  constexpr std::array<std::string_view, exit_code_meanings.size()> covers{
      "",
      " (a bug, or an unexpected system failure)",
      " (configuration, command line, input files)",
      " (reading or writing results)",
      " (the solution blew up)",
      " (a signal or the wall limit; --restart continues)"};
  for (const auto& [code, meaning] : exit_code_meanings)
    text += fmt::format("  {}  {}{}\n", static_cast<int>(code), meaning, covers.at(static_cast<std::size_t>(code)));
  return text + "\nThe configuration's keys: inputs/README.md; options, files and exit codes: docs/usage.md\n";
}

}  // namespace

std::variant<CommandLine, int> parse_command_line(int argc, char** argv, const MpiSession& mpi) {
  CLI::App cli{"simapp: compressible atmosphere, dry or with warm rain (stencil time stepping) on CPU or GPU"};
  CommandLine command_line;
  cli.add_option("config", command_line.config_path, "YAML configuration file (see inputs/README.md)");
  cli.add_option("--set", command_line.overrides, "Override a configuration key: --set grid.nx=200")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  // A later --backend or --mode replaces an earlier one, so that a wrapper's fixed options can
  // come before its user's (scripts/slurm/*.sbatch pass --backend before "$@").
  cli.add_option("--backend", command_line.backend, "Same as --set execution.backend=B; the last one given wins")
      ->check(CLI::IsMember({"auto", "cuda", "host"}))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.add_option("--mode", command_line.mode, "Same as --set execution.mode=M; the last one given wins")
      ->check(CLI::IsMember(execution_mode_choices()))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.add_flag("--validate", command_line.validate_only, "Check the configuration and exit");
  cli.add_flag("--print-config", command_line.print_config,
               "Print the resolved configuration as YAML (every key, defaults included) and exit; simapp runs "
               "the printed file as it is");
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
  cli.footer(help_footer());
  cli.set_version_flag("--version", fmt::format("simapp {} (git {}, CUDA backend {})", build_info::version,
                                                build_info::git_hash, build_info::cuda ? "built" : "not built"));
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
  return command_line;
}

}  // namespace simapp::app
