#pragma once
/// The text of a configuration file, read with a bound so that no input can stall a run.
#include <cstddef>
#include <string>

namespace simapp::io {

/// The most bytes a configuration may hold (1 MiB); a real one is a few hundred.
inline constexpr std::size_t max_config_bytes = std::size_t{1} << 20;

/// Reads the file at `path`: a regular file or a pipe (a named pipe, `<(command)`), reading
/// at most max_config_bytes. Directories and devices are refused without reading them
/// (/dev/zero would never end). Throws simapp::Error(ExitCode::bad_input) with `path` as its
/// where for every failure.
std::string read_config_text(const std::string& path);

}  // namespace simapp::io
