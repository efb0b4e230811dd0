#pragma once
/// Creating result files safely. A file is written under its temporary name in the folder for
/// unfinished files of its directory (`<dir>/.simapp_tmp/<name>`), which is created exclusively
/// (an existing name, a link above all, is never opened or followed), then synced, and only
/// then renamed to its final name. A killed run leaves unfinished files in that folder only,
/// where the next run clears them; nothing outside the output directory is ever touched.
#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace simapp::io {

/// A failed step of writing or reading a file; callers report it as an Error naming the file.
class FileFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws FileFailure(what + ": " + the system's reason for errno).
[[noreturn]] void fail_system(const std::string& what);

/// The folder for unfinished files of `directory`.
std::filesystem::path unfinished_folder(const std::filesystem::path& directory);

/// Creates `folder`, a folder for unfinished files, unless it is there already as a plain
/// directory; throws FileFailure when something else is there.
void make_unfinished_folder(const std::filesystem::path& folder);

/// Where `target` is while it is unfinished: `<its directory>/.simapp_tmp/<its name>`.
std::filesystem::path unfinished_path(const std::filesystem::path& target);

/// Removes what interrupted runs left in `directory`'s folder for unfinished files (links are
/// removed, never followed), and the folder itself. Throws FileFailure when it cannot.
void clear_unfinished(const std::filesystem::path& directory);

/// Whether publishing may replace a file that already has the final name.
enum class Replace { never, allowed };

/// A new file being written under its temporary name; removed when it goes out of scope
/// unless published. Every failure is a FileFailure naming the file and the system's reason.
class NewFile {
 public:
  /// Creates the folder for unfinished files when missing (refusing anything there that is not
  /// a plain directory) and the temporary file in it, exclusively; an unfinished file of the
  /// same name that a killed run left is removed first.
  explicit NewFile(std::filesystem::path target);
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;
  ~NewFile();

  const std::filesystem::path& temporary() const { return temporary_; }
  const std::filesystem::path& target() const { return target_; }

  /// Appends `bytes`.
  void write(const std::string& bytes);
  /// Writes `size` bytes at `offset`; the disk starts writing a large range (≥ 1 MiB) at once.
  /// Several threads may write distinct ranges at the same time.
  void write_at(const void* data, std::size_t size, off_t offset);
  /// Sets the file's size (a sparse extension reads as zeros).
  void resize(off_t size);
  /// Waits until the data is on the disk, and closes the file.
  void sync_and_close();
  /// Gives the closed file its final name; Replace::never refuses an existing one.
  void publish(Replace replace);

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  int descriptor_ = -1;
  std::atomic<off_t> end_ = 0;  ///< where write() appends
  bool published_ = false;
};

/// Writes `size` bytes at each offset given, into `path`, an existing file that another rank
/// created with NewFile (never a link); syncs and closes it. `offsets` and `sources` pair up.
class ExistingFileWriter {
 public:
  explicit ExistingFileWriter(const std::filesystem::path& path);
  ExistingFileWriter(const ExistingFileWriter&) = delete;
  ExistingFileWriter& operator=(const ExistingFileWriter&) = delete;
  ~ExistingFileWriter();

  void write_at(const void* data, std::size_t size, off_t offset);
  void sync_and_close();

 private:
  std::filesystem::path path_;
  int descriptor_ = -1;
};

/// Creates `directory` (with its parents) and checks that a file named `longest_name` can be
/// created among its unfinished files, so every name the run writes fits; throws FileFailure
/// with the reason otherwise.
void probe_directory(const std::filesystem::path& directory, const std::string& longest_name);

}  // namespace simapp::io
