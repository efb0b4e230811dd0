#pragma once
/// The text of a configuration file, read with a bound so that no input can stall a run.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace simapp::io {

/// The most bytes a configuration may hold (1 MiB); a real one is a few hundred.
inline constexpr std::size_t max_config_bytes = std::size_t{1} << 20;

/// What reading a pipe does while it waits for its writer (a named pipe nothing has opened yet,
/// or a command that has not written yet).
struct PipeWait {
  /// Asked whenever a signal interrupts the wait: the name of the signal that asks the process
  /// to stop ("SIGTERM"), which ends the wait; "" to wait on.
  std::function<std::string()> stop_signal = [] { return std::string(); };
  /// Told once when the pipe has kept the reader waiting for `notice_after`.
  std::function<void()> on_long_wait = [] {};
  std::chrono::milliseconds notice_after{1000};
};

/// Reads the file at `path`: a regular file or a pipe (a named pipe, `<(command)`), reading
/// at most max_config_bytes. Directories and devices are refused without reading them
/// (/dev/zero would never end). Throws simapp::Error(ExitCode::bad_input) with `path` as its
/// where for every failure, and Error(ExitCode::interrupted) when `wait` stops the wait for a
/// pipe's writer.
std::string read_config_text(const std::string& path, const PipeWait& wait = {});

}  // namespace simapp::io
