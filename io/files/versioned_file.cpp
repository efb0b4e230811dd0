#include "io/files/versioned_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "io/files/new_file.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// A file descriptor, closed when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int descriptor) : descriptor_(descriptor) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  int get() const { return descriptor_; }

 private:
  int descriptor_;
};

/// Whether `path` is a version of `published` that may be written to: another file than the
/// published one (a replacement that failed between its two renames leaves the same), which no
/// other process has open with a lock (see the header); false where it cannot be told.
bool reusable(const fs::path& path, const fs::path& published) {
  const Descriptor file(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  struct stat version {
  }, current{};
  if (file.get() < 0 || ::fstat(file.get(), &version) != 0 || ::stat(published.c_str(), &current) != 0) return false;
  const bool same = version.st_dev == current.st_dev && version.st_ino == current.st_ino;
  return !same && ::flock(file.get(), LOCK_EX | LOCK_NB) == 0;
}

/// Copies every byte of `from` to `to` (the kernel's copy_file_range, which shares the blocks on
/// file systems that can; else reads and writes).
void copy_bytes(int from, int to, const fs::path& source) {
  struct stat status {};
  if (::fstat(from, &status) != 0) fail_system("cannot inspect " + source.string());
  off_t copied = 0;
  while (copied < status.st_size) {
    const ssize_t count =
        ::copy_file_range(from, nullptr, to, nullptr, static_cast<std::size_t>(status.st_size - copied), 0);
    if (count > 0) {
      copied += count;
      continue;
    }
    if (count < 0 && errno == EINTR) continue;
    if (count == 0 || errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) break;
    fail_system("cannot copy " + source.string());
  }
  std::vector<char> buffer(std::size_t{1} << 22);
  while (copied < status.st_size) {  // what copy_file_range left
    const ssize_t count = ::pread(from, buffer.data(), buffer.size(), copied);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) fail_system("cannot read " + source.string());
    for (ssize_t written = 0; written < count;) {
      const ssize_t part =
          ::pwrite(to, buffer.data() + written, static_cast<std::size_t>(count - written), copied + written);
      if (part < 0 && errno == EINTR) continue;
      if (part < 0) fail_system("cannot write a copy of " + source.string());
      written += part;
    }
    copied += count;
  }
}

void sync_directory(const fs::path& directory) {
  const Descriptor folder(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (folder.get() >= 0) ::fsync(folder.get());
}

}  // namespace

VersionedFile::VersionedFile(fs::path target)
    : target_(std::move(target)),
      working_copy_(unfinished_path(target_)),
      replaced_(unfinished_path(target_).string() + ".replaced") {}

VersionedFile::~VersionedFile() {
  ::unlink(working_copy_.c_str());
  ::unlink(replaced_.c_str());
  ::rmdir(working_copy_.parent_path().c_str());  // where it is empty now
}

void VersionedFile::make_working_copy() {
  make_unfinished_folder(working_copy_.parent_path());
  if (::unlink(working_copy_.c_str()) != 0 && errno != ENOENT)
    fail_system("cannot remove the unfinished " + working_copy_.string());
  if (reusable(replaced_, target_)) {
    if (::rename(replaced_.c_str(), working_copy_.c_str()) != 0) fail_system("cannot rename " + replaced_.string());
    return;
  }
  if (::unlink(replaced_.c_str()) != 0 && errno != ENOENT) fail_system("cannot remove " + replaced_.string());
  const Descriptor from(::open(target_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (from.get() < 0) fail_system("cannot open " + target_.string());
  const Descriptor to(::open(working_copy_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (to.get() < 0) fail_system("cannot create " + working_copy_.string());
  copy_bytes(from.get(), to.get(), target_);
}

void VersionedFile::replace() {
  {
    const Descriptor copy(::open(working_copy_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (copy.get() < 0 || ::fsync(copy.get()) != 0) fail_system("cannot sync " + working_copy_.string());
  }
  if (::unlink(replaced_.c_str()) != 0 && errno != ENOENT) fail_system("cannot remove " + replaced_.string());
  if (::link(target_.c_str(), replaced_.c_str()) != 0 && errno != EPERM && errno != ENOTSUP)
    fail_system("cannot keep the version of " + target_.string());
  if (::rename(working_copy_.c_str(), target_.c_str()) != 0)
    fail_system("cannot rename " + working_copy_.string() + " to " + target_.string());
  sync_directory(target_.has_parent_path() ? target_.parent_path() : fs::path("."));
}

}  // namespace simapp::io
