#include "io/files/new_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* unfinished_name = ".simapp_tmp";

bool exists_as_link_or_file(const fs::path& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0;
}

/// Removes the folder when it is empty.
void remove_if_empty(const fs::path& folder) { ::rmdir(folder.c_str()); }

/// Opens `path` as a new file, exclusively and never through a link; an old file of that name
/// (only simapp puts files in the folder for unfinished ones) is removed first.
int create_exclusively(const fs::path& path) {
  for (int attempt = 0;; ++attempt) {
    const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (descriptor >= 0) return descriptor;
    if (errno != EEXIST || attempt > 0) fail_system("cannot create " + path.string());
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail_system("cannot remove the unfinished " + path.string());
  }
}

void write_fully(int descriptor, const char* data, std::size_t size, off_t offset, const fs::path& path) {
  for (std::size_t written = 0; written < size;) {
    const ssize_t count = ::pwrite(descriptor, data + written, size - written, offset + static_cast<off_t>(written));
    if (count < 0) {
      if (errno == EINTR) continue;
      fail_system("cannot write " + path.string());
    }
    written += static_cast<std::size_t>(count);
  }
}

/// Writes `size` bytes at `offset` and, for a large write, starts the disk writing them now
/// (Linux's sync_file_range): a long file is then on its way while its later parts are still
/// being computed, and the sync at its end waits for little. Failures of that early start
/// surface at the sync.
void write_and_start_writeback(int descriptor, const char* data, std::size_t size, off_t offset, const fs::path& path) {
  write_fully(descriptor, data, size, offset, path);
  constexpr std::size_t large = std::size_t{1} << 20;
  if (size >= large) ::sync_file_range(descriptor, offset, static_cast<off_t>(size), SYNC_FILE_RANGE_WRITE);
}

void sync_and_close_descriptor(int& descriptor, const fs::path& path) {
  const int open = std::exchange(descriptor, -1);
  if (::fsync(open) != 0) {
    const int error = errno;
    ::close(open);
    errno = error;
    fail_system("cannot sync " + path.string());
  }
  if (::close(open) != 0) fail_system("cannot close " + path.string());
}

/// Makes a rename in `directory` durable.
void sync_directory(const fs::path& directory) {
  const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor < 0) return;
  ::fsync(descriptor);
  ::close(descriptor);
}

fs::path parent_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

}  // namespace

[[noreturn]] void fail_system(const std::string& what) {
  throw FileFailure(what + ": " + std::generic_category().message(errno));
}

void make_unfinished_folder(const fs::path& folder) {
  if (::mkdir(folder.c_str(), 0755) == 0) return;
  if (errno != EEXIST) fail_system("cannot create " + folder.string());
  struct stat status {};
  if (::lstat(folder.c_str(), &status) != 0) fail_system("cannot inspect " + folder.string());
  if (!S_ISDIR(status.st_mode))
    throw FileFailure(folder.string() + " is not a directory (simapp keeps unfinished files there); remove it");
}

fs::path unfinished_folder(const fs::path& directory) { return directory / unfinished_name; }

fs::path unfinished_path(const fs::path& target) { return unfinished_folder(parent_of(target)) / target.filename(); }

void clear_unfinished(const fs::path& directory) {
  const fs::path folder = unfinished_folder(directory);
  struct stat status {};
  if (::lstat(folder.c_str(), &status) != 0) return;
  if (!S_ISDIR(status.st_mode))
    throw FileFailure(folder.string() + " is not a directory (simapp keeps unfinished files there); remove it");
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const fs::path& path = it->path();
    if (::lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
      throw FileFailure(path.string() + " is a directory among unfinished files; remove it");
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail_system("cannot remove " + path.string());
  }
  if (error) throw FileFailure("cannot read " + folder.string() + ": " + error.message());
  remove_if_empty(folder);
}

NewFile::NewFile(fs::path target) : target_(std::move(target)), temporary_(unfinished_path(target_)) {
  make_unfinished_folder(temporary_.parent_path());
  try {
    descriptor_ = create_exclusively(temporary_);
  } catch (const FileFailure&) {
    remove_if_empty(temporary_.parent_path());
    throw;
  }
}

NewFile::~NewFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
  if (!published_) ::unlink(temporary_.c_str());
  remove_if_empty(temporary_.parent_path());
}

void NewFile::write(const std::string& bytes) { write_at(bytes.data(), bytes.size(), end_); }

void NewFile::write_at(const void* data, std::size_t size, off_t offset) {
  write_and_start_writeback(descriptor_, static_cast<const char*>(data), size, offset, temporary_);
  const off_t end = offset + static_cast<off_t>(size);
  off_t seen = end_.load();
  while (seen < end && !end_.compare_exchange_weak(seen, end)) {
    // `seen` now holds the end another thread set; try again while ours is further.
  }
}

void NewFile::resize(off_t size) {
  if (::ftruncate(descriptor_, size) != 0) fail_system("cannot extend " + temporary_.string());
}

void NewFile::sync_and_close() { sync_and_close_descriptor(descriptor_, temporary_); }

void NewFile::publish(Replace replace) {
  if (replace == Replace::never && exists_as_link_or_file(target_))
    throw FileFailure("exists; result files are never overwritten");
  if (::rename(temporary_.c_str(), target_.c_str()) != 0)
    fail_system("cannot rename " + temporary_.string() + " to " + target_.string());
  published_ = true;
  sync_directory(parent_of(target_));
}

ExistingFileWriter::ExistingFileWriter(const fs::path& path) : path_(path) {
  descriptor_ = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor_ < 0) fail_system("cannot open " + path.string());
}

ExistingFileWriter::~ExistingFileWriter() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

void ExistingFileWriter::write_at(const void* data, std::size_t size, off_t offset) {
  write_and_start_writeback(descriptor_, static_cast<const char*>(data), size, offset, path_);
}

void ExistingFileWriter::sync_and_close() { sync_and_close_descriptor(descriptor_, path_); }

void probe_directory(const fs::path& directory, const std::string& longest_name) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) throw FileFailure("cannot create '" + directory.string() + "': " + error.message());
  const NewFile probe(directory / longest_name);  // removed again when it goes out of scope
}

}  // namespace simapp::io
