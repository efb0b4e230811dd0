#pragma once
/// One process at a time in a directory: an advisory lock on `<directory>/.simapp_lock`, held
/// until the process lets it go or ends, however it ends (the kernel drops the lock of a dead
/// process). The file names its holder (host, process id, start time), so that a process that
/// is refused can say who has the directory. Where the file system has no flock (some parallel
/// file systems are mounted without it), the lock is the file's exclusive creation instead, and
/// removing it lets go; one that a killed process left behind is named as probably stale, and
/// never removed by another process. simapp writes only into a lock file of its own: a regular
/// file of one name. Anything else under that name (a hard link to a user's file, a named pipe)
/// is refused, untouched.
#include <filesystem>
#include <string>

namespace simapp::io {

/// How the lock is taken.
enum class LockMethod {
  automatic,       ///< flock, or where the file system has none, the exclusive file
  exclusive_file,  ///< the exclusive file only
};

/// The name of the lock file in a locked directory.
inline constexpr const char* lock_file_name = ".simapp_lock";

class DirectoryLock {
 public:
  /// Takes the lock of `directory`, which must exist. Throws a bad-input Error (where:
  /// `directory`) naming the holder when another process holds it, one (where: the lock file)
  /// when the lock file is not simapp's own, and an I/O Error when the lock file cannot be made.
  explicit DirectoryLock(const std::filesystem::path& directory, LockMethod method = LockMethod::automatic);
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  ~DirectoryLock();

  /// How it was taken: by flock, or as the exclusive file.
  bool by_flock() const { return by_flock_; }

 private:
  std::filesystem::path path_;
  int descriptor_ = -1;
  bool by_flock_ = false;
};

}  // namespace simapp::io
