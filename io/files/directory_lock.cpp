#include "io/files/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "foundation/error.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

/// The holder's line: "host <name> pid <n> since <UTC time>".
std::string holder_text() {
  const std::time_t now = std::time(nullptr);
  std::array<char, 32> when{};
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(when.data(), when.size(), "%Y-%m-%d %H:%M:%S UTC", &utc);
  return fmt::format("host {} pid {} since {}\n", host_name(), ::getpid(), when.data());
}

/// What `descriptor`'s file says of its holder (its first line, at most 200 bytes).
std::string read_holder(int descriptor) {
  std::array<char, 201> text{};
  const ssize_t count = ::pread(descriptor, text.data(), text.size() - 1, 0);
  std::string holder(text.data(), count > 0 ? static_cast<std::size_t>(count) : 0);
  if (const auto end = holder.find('\n'); end != std::string::npos) holder.resize(end);
  return holder.empty() ? std::string("a process that has not named itself yet") : holder;
}

void write_holder(int descriptor, const fs::path& path) {
  const std::string text = holder_text();
  if (::ftruncate(descriptor, 0) != 0 || ::pwrite(descriptor, text.data(), text.size(), 0) < 0)
    throw Error(ExitCode::io, path.string(), "cannot write the lock file: " + std::generic_category().message(errno));
}

Error cannot_lock(const fs::path& path) {
  return Error(ExitCode::io, path.string(), "cannot make the lock file: " + std::generic_category().message(errno));
}

Error in_use(const fs::path& directory, const std::string& holder, const std::string& advice = "") {
  return Error(
      ExitCode::bad_input, directory.string(),
      fmt::format("in use by another simapp run ({}); one run at a time per output directory{}", holder, advice));
}

/// What makes the file of `status` not a lock file of simapp's own, which simapp may write
/// into: another kind of file than a regular one, or one with other names (a hard link to a
/// user's file, left by `cp -al` or planted, whose content would be overwritten); "" when it is.
std::string not_own_lock_file(const struct stat& status) {
  if (S_ISFIFO(status.st_mode)) return "a named pipe, not a regular file; simapp never writes into it: remove it";
  if (S_ISDIR(status.st_mode)) return "a directory, not a regular file; simapp never writes into it: remove it";
  if (!S_ISREG(status.st_mode)) return "not a regular file; simapp never writes into it: remove it";
  if (status.st_nlink > 1)
    return fmt::format(
        "it has {} names (a hard link); simapp never writes into it: remove this name (the file's other names keep "
        "its content)",
        status.st_nlink);
  return {};
}

Error not_own(const fs::path& path, const std::string& why) {
  return Error(ExitCode::bad_input, path.string(),
               fmt::format("not simapp's lock file: {}, or choose another output.dir", why));
}

/// Refuses the file at `path` (not followed), when there is one, unless it is simapp's own.
void require_own_or_none(const fs::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return;  // none yet (or no access: opening it says why)
  if (!S_ISLNK(status.st_mode))
    if (const std::string why = not_own_lock_file(status); !why.empty()) throw not_own(path, why);
}

/// Opens the lock file at `path` with `flags`, never through a link, never blocking on a pipe;
/// closes it and refuses it when it is not simapp's own (the check above, again on what was
/// opened). Returns -1 with errno set when it cannot be opened.
int open_own(const fs::path& path, int flags) {
  const int descriptor = ::open(path.c_str(), flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
  if (descriptor < 0) return descriptor;
  struct stat status {};
  const std::string why =
      ::fstat(descriptor, &status) != 0 ? std::string("it cannot be examined; remove it") : not_own_lock_file(status);
  if (!why.empty()) {
    ::close(descriptor);
    throw not_own(path, why);
  }
  return descriptor;
}

/// Whether flock failed because the file system has none (rather than because of the holder).
bool no_flock_here(int error) { return error == ENOLCK || error == ENOSYS || error == EOPNOTSUPP || error == EINVAL; }

/// Whether the holder line names a process of this host that no longer runs.
bool holder_gone(const std::string& holder) {
  std::istringstream words(holder);
  std::string host_word, host, pid_word;
  long pid = 0;
  if (!(words >> host_word >> host >> pid_word >> pid) || host != host_name() || pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

DirectoryLock::DirectoryLock(const fs::path& directory, LockMethod method) : path_(directory / lock_file_name) {
  // Checked before opening, since opening a device or a pipe can block or act on its own.
  require_own_or_none(path_);
  if (method == LockMethod::automatic) {
    descriptor_ = open_own(path_, O_RDWR | O_CREAT);
    // Another user's lock file (a shared directory) locks as well read-only, without naming us.
    const bool writable = descriptor_ >= 0;
    if (!writable && errno == EACCES) descriptor_ = open_own(path_, O_RDONLY);
    if (descriptor_ < 0) throw cannot_lock(path_);
    if (::flock(descriptor_, LOCK_EX | LOCK_NB) == 0) {
      by_flock_ = true;
      if (writable) write_holder(descriptor_, path_);
      return;
    }
    const int error = errno;
    if (error == EWOULDBLOCK) {
      const std::string holder = read_holder(descriptor_);
      ::close(descriptor_);
      throw in_use(directory, holder);
    }
    ::close(descriptor_);
    descriptor_ = -1;
    if (!no_flock_here(error)) {
      errno = error;
      throw cannot_lock(path_);
    }
    // No flock on this file system: the file's existence is the lock. A file left by a run that
    // had flock is taken as a lock too; the message below names it.
  }
  descriptor_ = open_own(path_, O_RDWR | O_CREAT | O_EXCL);
  if (descriptor_ >= 0) {
    write_holder(descriptor_, path_);
    return;
  }
  if (errno != EEXIST) throw cannot_lock(path_);
  const int existing = open_own(path_, O_RDONLY);
  const std::string holder = existing >= 0 ? read_holder(existing) : std::string("unreadable");
  if (existing >= 0) ::close(existing);
  throw in_use(directory, holder,
               fmt::format("; {}: remove {} if no run uses the directory",
                           holder_gone(holder) ? "it looks stale (that process is not running)"
                                               : "a run killed outright leaves it behind",
                           path_.string()));
}

DirectoryLock::~DirectoryLock() {
  if (descriptor_ < 0) return;
  if (!by_flock_) ::unlink(path_.c_str());  // the file is the lock; a flock goes with the descriptor
  ::close(descriptor_);
}

}  // namespace simapp::io
