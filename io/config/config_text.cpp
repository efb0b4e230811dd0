#include "io/config/config_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
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
  ~OpenFile() { ::close(descriptor_); }

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

}  // namespace

std::string read_config_text(const std::string& path) {
  const auto fail = [&](const std::string& what) { return Error{ExitCode::bad_input, path, what}; };
  const auto cannot_read = [&](int error) {
    return fail("cannot read configuration file (" + std::generic_category().message(error) + ")");
  };
  // Refused before opening: opening a device can block or have effects of its own.
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) throw cannot_read(errno);
  if (const std::string reason = refusal(status); !reason.empty()) throw fail(reason);

  int descriptor = -1;
  do {
    descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);  // a pipe waits for its writer here
  } while (descriptor < 0 && errno == EINTR);
  if (descriptor < 0) throw cannot_read(errno);
  const OpenFile file(descriptor);
  if (::fstat(file.get(), &status) != 0) throw cannot_read(errno);
  if (const std::string reason = refusal(status); !reason.empty()) throw fail(reason);

  std::string text;
  std::array<char, 64 * 1024> buffer{};
  for (;;) {
    const ssize_t count = ::read(file.get(), buffer.data(), buffer.size());
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) throw cannot_read(errno);
    if (count == 0) return text;
    if (text.size() + static_cast<std::size_t>(count) > max_config_bytes)
      throw fail("configuration file is larger than 1 MiB");
    text.append(buffer.data(), static_cast<std::size_t>(count));
  }
}

}  // namespace simapp::io
