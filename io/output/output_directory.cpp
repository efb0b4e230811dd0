#include "io/output/output_directory.hpp"

#include <string>
#include <system_error>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/files/new_file.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// Refuses a relative `directory` when the working directory it lies in is gone (a shell left
/// in a directory that was removed): no path can be made of it.
void require_working_directory(const fs::path& directory) {
  if (directory.is_absolute()) return;
  std::error_code error;
  if (!fs::current_path(error).empty()) return;  // empty when it cannot be found
  throw Error(ExitCode::bad_input, "output.dir",
              fmt::format("cannot write to '{}': the working directory it is relative to cannot be found ({}; "
                          "was it removed?): change to an existing directory or give an absolute path",
                          directory.string(), error.message()));
}

/// Refuses a directory inside a folder for unfinished files, as written or once links are
/// resolved.
void require_outside_unfinished_folders(const fs::path& directory) {
  const fs::path unfinished = unfinished_folder({}).filename();
  std::error_code error;
  for (const fs::path& path : {fs::absolute(directory).lexically_normal(), fs::weakly_canonical(directory, error)})
    for (const fs::path& part : path)
      if (part == unfinished)
        throw Error(ExitCode::bad_input, "output.dir",
                    fmt::format("'{}' lies inside a {} folder, where simapp keeps unfinished files and which the "
                                "next run in the directory above clears: choose another directory",
                                directory.string(), unfinished.string()));
}

}  // namespace

OwnedOutputDirectory::OwnedOutputDirectory(const fs::path& directory, MPI_Comm comm) {
  run_on_root_agreed(comm, [&] {
    require_working_directory(directory);
    require_outside_unfinished_folders(directory);
    const auto cannot_write = [&](const std::string& why) {
      return Error(ExitCode::bad_input, "output.dir", fmt::format("cannot write to '{}': {}", directory.string(), why));
    };
    std::error_code error;
    fs::create_directories(directory, error);
    if (error) throw cannot_write(error.message());
    try {
      lock_.emplace(directory);
    } catch (const Error& failure) {
      if (failure.code() != ExitCode::io) throw;  // held by another run
      throw cannot_write(failure.what());
    }
  });
}

}  // namespace simapp::io
