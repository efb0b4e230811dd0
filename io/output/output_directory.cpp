#include "io/output/output_directory.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

Error cannot_write(const fs::path& directory, const std::string& why) {
  return Error(ExitCode::bad_input, "output.dir", fmt::format("cannot write to '{}': {}", directory.string(), why));
}

std::string reason(int error) { return std::generic_category().message(error); }

/// The nearest folder of `directory` that exists (`directory` itself when it does), and the
/// names below it that a run would make; throws what making them would meet on the way (a
/// file where a folder should be, a loop of links).
std::pair<fs::path, std::vector<std::string>> existing_part(const fs::path& directory) {
  std::vector<std::string> to_make;
  fs::path existing = directory;
  struct stat status {};
  while (::stat(existing.empty() ? "." : existing.c_str(), &status) != 0) {
    if (errno != ENOENT) throw cannot_write(directory, reason(errno));
    if (!existing.filename().empty()) to_make.push_back(existing.filename().string());
    existing = existing.parent_path();
  }
  if (!S_ISDIR(status.st_mode)) throw cannot_write(directory, reason(ENOTDIR));
  return {existing.empty() ? fs::path(".") : existing, to_make};
}

}  // namespace

void check_output_directory(const fs::path& directory, const std::string& longest_name) {
  require_outside_unfinished_folders(directory);
  const auto& [existing, to_make] = existing_part(directory);
  const long name_max = ::pathconf(existing.c_str(), _PC_NAME_MAX);
  for (const std::string& name : to_make)
    if (name_max > 0 && static_cast<long>(name.size()) > name_max) throw cannot_write(directory, reason(ENAMETOOLONG));
  if (directory.string().size() >= PATH_MAX) throw cannot_write(directory, reason(ENAMETOOLONG));
  // Making a folder, or the lock file in the directory, needs write and search permission where
  // it is made, on a file system mounted read-write (access() says EROFS there, even to root).
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw cannot_write(directory, to_make.empty() ? "cannot make the lock file: " + reason(errno) : reason(errno));
  const fs::path folder = unfinished_folder(directory);
  struct stat status {};
  if (::lstat(folder.c_str(), &status) == 0 && !S_ISDIR(status.st_mode))
    throw cannot_write(directory,
                       folder.string() + " is not a directory (simapp keeps unfinished files there); remove it");
  for (const fs::path& path : {folder, unfinished_path(directory / longest_name)})
    if (path.string().size() >= PATH_MAX)
      throw cannot_write(directory, "cannot create " + path.string() + ": " + reason(ENAMETOOLONG));
}

OwnedOutputDirectory::OwnedOutputDirectory(const fs::path& directory, MPI_Comm comm) {
  run_on_root_agreed(comm, [&] {
    require_working_directory(directory);
    require_outside_unfinished_folders(directory);
    std::error_code error;
    fs::create_directories(directory, error);
    if (error) throw cannot_write(directory, error.message());
    try {
      lock_.emplace(directory);
    } catch (const Error& failure) {
      if (failure.code() != ExitCode::io) throw;  // held by another run
      throw cannot_write(directory, failure.what());
    }
  });
}

}  // namespace simapp::io
