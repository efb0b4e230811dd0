#pragma once
/// simapp-bench's command line: `simapp-bench [--json PATH] [--repeat R] [--quick] [--help]`.
#include <string>

namespace simapp::bench {

/// What the command line asked for.
struct Config {
  std::string json_path;      ///< empty: no JSON file
  int repeat = 11;            ///< R: repetitions of each measurement; median, range and samples reported
  int single_samples = 1000;  ///< samples of the single-launch measurements
  bool quick = false;
  bool help = false;
};

/// Reads `simapp-bench [--json PATH] [--repeat R] [--quick] [--help]`; a mistake throws (exit code 2).
Config parse_args(int argc, char** argv);

/// Prints the command-line help.
void print_usage();

}  // namespace simapp::bench
