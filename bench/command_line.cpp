#include "bench/command_line.hpp"

#include <charconv>
#include <string_view>
#include <system_error>

#include <fmt/core.h>

#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

constexpr int kMaxRepeat = 100;

/// A command-line mistake: reported as one line, exit code 2.
Error usage_error(const std::string& what) { return Error(ExitCode::bad_input, "", what); }

/// Parses `text` as the value of --repeat.
int parse_repeat(std::string_view text) {
  int value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxRepeat)
    throw usage_error(fmt::format("--repeat needs an integer from 1 to {}, got '{}'", kMaxRepeat, text));
  return value;
}

}  // namespace

Config parse_args(int argc, char** argv) {
  Config config;
  int repeat = 0;  // 0: not given
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--quick") {
      config.quick = true;
    } else if (arg == "--help" || arg == "-h") {
      config.help = true;
    } else if (arg == "--json" || arg == "--repeat") {
      if (!has_value) throw usage_error(fmt::format("{} needs a value", arg));
      const std::string_view value = argv[++i];
      if (arg == "--json")
        config.json_path = value;
      else
        repeat = parse_repeat(value);
    } else {
      throw usage_error(fmt::format("unknown argument '{}' (try --help)", arg));
    }
  }
  if (config.quick) {
    config.repeat = 3;
    config.single_samples = 200;
  }
  if (repeat != 0) config.repeat = repeat;
  return config;
}

void print_usage() {
  fmt::print(
      "usage: simapp-bench [--json PATH] [--repeat R] [--quick]\n"
      "Measures CUDA launch overhead and CUDA-graph replay cost (see docs/benchmarks.md).\n"
      "  --json PATH   also write all results as one JSON document to PATH\n"
      "  --repeat R    repetitions of each measurement: median and range reported (1..{}, default 11)\n"
      "  --quick       fewer repetitions (3) and samples: a smoke test\n",
      kMaxRepeat);
}

}  // namespace simapp::bench
