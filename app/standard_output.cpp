#include "app/standard_output.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>

namespace simapp::app {

namespace {

std::atomic<bool> reader_gone{false};

constexpr char reader_gone_warning[] =
    "simapp: warning: standard output was closed by its reader; the run goes on without printing\n";

/// Writes `size` bytes to file descriptor 1; once its reader has gone, takes them without
/// writing. Returns what was taken, or -1 on another failure (an I/O error for the caller).
ssize_t write_standard_output(void*, const char* data, std::size_t size) {
  for (std::size_t written = 0; written < size && !reader_gone;) {
    const ssize_t count = ::write(STDOUT_FILENO, data + written, size - written);
    if (count >= 0) {
      written += static_cast<std::size_t>(count);
    } else if (errno == EPIPE) {
      reader_gone = true;
      [[maybe_unused]] const ssize_t ignored =
          ::write(STDERR_FILENO, reader_gone_warning, sizeof reader_gone_warning - 1);
    } else if (errno != EINTR) {
      return -1;
    }
  }
  return static_cast<ssize_t>(size);
}

}  // namespace

void keep_running_when_stdout_closes() {
  const bool terminal = ::isatty(STDOUT_FILENO) == 1;
  std::fflush(stdout);
  std::FILE* stream =
      fopencookie(nullptr, "w", cookie_io_functions_t{nullptr, write_standard_output, nullptr, nullptr});
  if (stream == nullptr) return;  // keep the plain stdout: a closed pipe then ends the printing with an error
  std::setvbuf(stream, nullptr, terminal ? _IOLBF : _IOFBF, BUFSIZ);
  stdout = stream;
}

std::string_view standard_output_closed_warning() {
  return reader_gone ? std::string_view(reader_gone_warning, sizeof reader_gone_warning - 2) : std::string_view();
}

}  // namespace simapp::app
