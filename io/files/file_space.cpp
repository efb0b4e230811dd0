#include "io/files/file_space.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "io/files/new_file.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// An existing file opened for writing, never through a link; closed when it goes out of scope.
class OpenFile {
 public:
  explicit OpenFile(const fs::path& path) : path_(path) {
    descriptor_ = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (descriptor_ < 0) fail_system("cannot open " + path.string());
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() { ::close(descriptor_); }

  int descriptor() const { return descriptor_; }
  const fs::path& path() const { return path_; }

  off_t size() const {
    struct stat status {};
    if (::fstat(descriptor_, &status) != 0) fail_system("cannot inspect " + path_.string());
    return status.st_size;
  }

 private:
  fs::path path_;
  int descriptor_ = -1;
};

}  // namespace

void reserve_space_after_end(const fs::path& path, off_t bytes) {
  const OpenFile file(path);
  const int error = ::posix_fallocate(file.descriptor(), file.size(), bytes);
  if (error != 0) {
    errno = error;
    fail_system("cannot reserve " + std::to_string(bytes) + " bytes for " + path.string());
  }
}

void cut_and_sync(const fs::path& path, off_t size) {
  const OpenFile file(path);
  if (file.size() > size && ::ftruncate(file.descriptor(), size) != 0) fail_system("cannot cut " + path.string());
  if (::fsync(file.descriptor()) != 0) fail_system("cannot sync " + path.string());
}

}  // namespace simapp::io
