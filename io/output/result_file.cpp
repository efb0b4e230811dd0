#include "io/output/result_file.hpp"

#include <fstream>
#include <system_error>

#include "kernels/backend/error.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

void check_result_path(const fs::path& path, Overwrite overwrite) {
  if (overwrite == Overwrite::refuse && fs::exists(path))
    throw Error(ExitCode::bad_input, path.string(), "exists; pass --overwrite to replace it");
  std::error_code error;
  fs::create_directories(path.parent_path().empty() ? fs::path(".") : path.parent_path(), error);
  if (error) throw Error(ExitCode::bad_input, path.parent_path().string(), "cannot create directory: " + error.message());
}

void write_result_file(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Error(ExitCode::io, temporary.string(), "write failed");
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) throw Error(ExitCode::io, path.string(), "cannot rename from " + temporary.string() + ": " + error.message());
}

}  // namespace simapp::io
