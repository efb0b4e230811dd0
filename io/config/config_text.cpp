#include "io/config/config_text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <system_error>

#include "foundation/error.hpp"

namespace simapp::io {
namespace {

/// Closes a file descriptor when it goes out of scope.
class OpenFile {
 public:
  explicit OpenFile(int descriptor) : descriptor_(descriptor) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }

  int get() const { return descriptor_; }

 private:
  int descriptor_;
};

/// The reason the type of `status` cannot be a configuration; empty when it can.
std::string refusal(const struct stat& status) {
  if (S_ISDIR(status.st_mode)) return "is a directory, not a configuration file";
  if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode)) return "is a device, not a configuration file";
  if (!S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode)) return "is not a regular file or a pipe";
  return {};
}

/// Waits until the pipe `descriptor` has input or has lost its writer, as `wait` says, asking
/// `wait` whether to stop after every signal (poll returns on one, SA_RESTART or not) and at
/// least every quarter second. A named pipe opened without waiting reports neither until a
/// writer has come and written or gone (Linux), so this is where its writer is waited for.
void wait_for_input(int descriptor, const std::string& path, const PipeWait& wait) {
  constexpr int tick_ms = 250;
  pollfd input{descriptor, POLLIN, 0};
  const auto started = std::chrono::steady_clock::now();
  bool noticed = false;
  for (;;) {
    if (const std::string signal = wait.stop_signal(); !signal.empty())
      throw Error{ExitCode::interrupted, path,
                  "stopped by " + signal + " while waiting for the pipe's writer; nothing was run"};
    const int ready = ::poll(&input, 1, tick_ms);
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR)
      throw Error{ExitCode::bad_input, path,
                  "cannot read configuration file (" + std::generic_category().message(errno) + ")"};
    if (!noticed && std::chrono::steady_clock::now() - started >= wait.notice_after) {
      noticed = true;
      wait.on_long_wait();
    }
  }
}

}  // namespace

std::string read_config_text(const std::string& path, const PipeWait& wait) {
  const auto fail = [&](const std::string& what) { return Error{ExitCode::bad_input, path, what}; };
  const auto cannot_read = [&](int error) {
    return fail("cannot read configuration file (" + std::generic_category().message(error) + ")");
  };
  // Refused before opening: opening a device can block or have effects of its own.
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) throw cannot_read(errno);
  if (const std::string reason = refusal(status); !reason.empty()) throw fail(reason);

  // Not blocking: a pipe's writer is waited for in wait_for_input, where a signal can end the wait.
  const OpenFile file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (file.get() < 0) throw cannot_read(errno);
  if (::fstat(file.get(), &status) != 0) throw cannot_read(errno);
  if (const std::string reason = refusal(status); !reason.empty()) throw fail(reason);
  const bool pipe = S_ISFIFO(status.st_mode);

  std::string text;
  std::array<char, 64 * 1024> buffer{};
  for (;;) {
    if (pipe) wait_for_input(file.get(), path, wait);
    const ssize_t count = ::read(file.get(), buffer.data(), buffer.size());
    if (count < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (count < 0) throw cannot_read(errno);
    if (count == 0) return text;
    if (text.size() + static_cast<std::size_t>(count) > max_config_bytes)
      throw fail("configuration file is larger than 1 MiB");
    text.append(buffer.data(), static_cast<std::size_t>(count));
  }
}

}  // namespace simapp::io
