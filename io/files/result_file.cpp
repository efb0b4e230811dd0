#include "io/files/result_file.hpp"

#include <system_error>

#include "foundation/error.hpp"
#include "io/files/new_file.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

void refuse_existing_result(const fs::path& path, Overwrite overwrite) {
  std::error_code error;
  if (overwrite == Overwrite::refuse && fs::exists(fs::symlink_status(path, error)))
    throw Error(ExitCode::bad_input, path.string(), "exists; pass --overwrite to replace it");
}

void check_result_path(const fs::path& path, Overwrite overwrite) {
  refuse_existing_result(path, overwrite);
  try {
    probe_directory(path.has_parent_path() ? path.parent_path() : fs::path("."), path.filename().string());
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::bad_input, path.string(), std::string("cannot be written: ") + failure.what());
  }
}

void write_result_file(const fs::path& path, const std::string& text) {
  try {
    NewFile file(path);
    file.write(text);
    file.sync_and_close();
    file.publish(Replace::allowed);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

}  // namespace simapp::io
