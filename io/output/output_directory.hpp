#pragma once
/// The output directory a run (or a timed command) owns while it lasts: created when missing,
/// never inside a folder for unfinished files (which the next run in the directory above would
/// clear), and locked (io/files/directory_lock.hpp) before anything in it is read or removed, so
/// that a second simapp there is refused at once, naming the first, instead of removing what
/// the first is writing.
#include <mpi.h>

#include <filesystem>
#include <optional>
#include <string>

#include "io/files/directory_lock.hpp"

namespace simapp::io {

/// What taking `directory` over (OwnedOutputDirectory) and probing it (probe_directory) check
/// before a run writes there, made without creating anything (--validate): that it lies outside
/// a .simapp_tmp folder, and that it is a directory this process may make files in (the lock,
/// then `longest_name` in its folder for unfinished files) or can be made as one: every name on
/// the way within the file system's limit, the nearest folder that exists writable, on a file
/// system mounted read-write, and every path short enough. Throws the bad-input Error (where:
/// output.dir) the run would throw. A file system that refuses new folders for reasons of its
/// own (/proc, /sys) is found by the run only.
void check_output_directory(const std::filesystem::path& directory, const std::string& longest_name);

class OwnedOutputDirectory {
 public:
  /// Collective over `comm`: rank 0 takes the lock; every rank throws the same bad-input Error
  /// (where: output.dir) when it cannot be had.
  OwnedOutputDirectory(const std::filesystem::path& directory, MPI_Comm comm);

 private:
  std::optional<DirectoryLock> lock_;  ///< rank 0's
};

}  // namespace simapp::io
