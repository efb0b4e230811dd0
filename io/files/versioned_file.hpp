#pragma once
/// A published result file that is changed only by replacing it whole (a snapshot series, which
/// grows by one output time at a time). A new version is made in a private working copy in the
/// folder for unfinished files, synced, and renamed over the published file: a reader that opens
/// the file at any moment gets a whole version, and one that has it open keeps the version it
/// opened, which is never written to again while it is open. A killed run leaves the published
/// file whole; its copies are unfinished files, which the next run clears.
///
/// The working copy is the version replaced last, where no reader has that open, and is then one
/// replacement behind (its owner makes that change again); else a copy of the published file.
/// HDF5's readers (h5py, h5netcdf, netCDF-C, ncdump) hold a shared lock (flock) on a file while
/// they have it open, which an exclusive lock of simapp's tells; where the file system has no
/// locks the copy is made every time. A reader that opens files with its locks turned off
/// (HDF5_USE_FILE_LOCKING=FALSE) and keeps one open across two replacements may see the second.
#include <filesystem>

namespace simapp::io {

class VersionedFile {
 public:
  /// The published file `target` (which need not exist yet). Nothing is touched.
  explicit VersionedFile(std::filesystem::path target);
  VersionedFile(const VersionedFile&) = delete;
  VersionedFile& operator=(const VersionedFile&) = delete;
  /// Removes the working copy and the version replaced last.
  ~VersionedFile();

  /// Where the working copy is: `<dir>/.simapp_tmp/<name>`.
  const std::filesystem::path& working_copy() const { return working_copy_; }

  /// Makes the working copy of the published file (which must exist, never a link): the version
  /// replaced last where no reader has it open (it then lacks the last replacement's changes),
  /// else a byte copy of the published file. Throws FileFailure.
  void make_working_copy();

  /// Syncs the working copy and renames it over the published file, keeping the version it
  /// replaces for the next working copy. Throws FileFailure; the published file is then the
  /// version before.
  void replace();

 private:
  std::filesystem::path target_;
  std::filesystem::path working_copy_;
  std::filesystem::path replaced_;  ///< the version replaced last
};

}  // namespace simapp::io
