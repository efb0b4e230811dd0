#pragma once
/// simapp's command line: what it asks for, as parsed by CLI11.
#include <string>
#include <variant>
#include <vector>

#include "app/mpi_session.hpp"

namespace simapp::app {

/// The options of one simapp command.
struct CommandLine {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string backend;
  std::string mode;
  bool validate_only = false;
  bool print_config = false;  ///< print the resolved configuration and exit
  bool plan_only = false;
  bool profile = false;
  bool overwrite = false;
  std::string restart;  ///< checkpoint path or "latest"; empty: a fresh run
};

/// The command line of `argc`/`argv`; or the exit code when there is nothing to run: help or
/// the version printed (by rank 0), or an error in it reported as one line.
std::variant<CommandLine, int> parse_command_line(int argc, char** argv, const MpiSession& mpi);

}  // namespace simapp::app
