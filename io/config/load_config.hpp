#pragma once
/// A run's configuration: a YAML file plus `--set key=value` overrides, checked into a RunSpec.
#include <string>
#include <vector>

#include "solver/spec/run_spec.hpp"

namespace simapp::io {

/// A configuration as loaded, with what is needed to record it next to the results.
struct LoadedConfig {
  RunSpec spec;               ///< the checked values
  std::string source_path;    ///< the file as given
  std::string resolved_yaml;  ///< every key after the overrides, defaults filled in, as YAML
};

/// Reads the YAML file at `path`, applies `overrides` ("key.path=value", later ones win) and
/// checks every value against config_keys(); throws simapp::Error(ExitCode::bad_input) whose
/// where is FILE:LINE (or `--set TEXT`) and whose what starts with the key path.
LoadedConfig load_config(const std::string& path, const std::vector<std::string>& overrides);

/// The same for `text`, the configuration read from `path` (read_config_text): so that the
/// ranks of a job act on the one text that rank 0 read.
LoadedConfig load_config_text(const std::string& path, const std::string& text,
                              const std::vector<std::string>& overrides);

/// Every key with its value in `spec`, defaults included, as YAML that loads back to the same
/// run: the keys resolved_yaml leaves out where they hold their defaults too, perturbation.*
/// where the case has a bump for them to configure, background.sounding where one is given
/// (--print-config).
std::string every_key_yaml(const RunSpec& spec);

}  // namespace simapp::io
