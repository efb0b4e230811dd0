#pragma once
/// The output directory a run (or a timed command) owns while it lasts: created when missing,
/// never inside a folder for unfinished files (which the next run in the directory above would
/// clear), and locked (io/files/directory_lock.hpp) before anything in it is read or removed, so
/// that a second simapp there is refused at once, naming the first, instead of removing what
/// the first is writing.
#include <mpi.h>

#include <filesystem>
#include <optional>

#include "io/files/directory_lock.hpp"

namespace simapp::io {

class OwnedOutputDirectory {
 public:
  /// Collective over `comm`: rank 0 takes the lock; every rank throws the same bad-input Error
  /// (where: output.dir) when it cannot be had.
  OwnedOutputDirectory(const std::filesystem::path& directory, MPI_Comm comm);

 private:
  std::optional<DirectoryLock> lock_;  ///< rank 0's
};

}  // namespace simapp::io
