#pragma once
/// Writing one small result file safely: refuse to replace an existing file unless asked, and
/// write it as a NewFile (io/files/new_file.hpp), so a failed write never leaves a corrupt file.
#include <filesystem>
#include <string>

namespace simapp::io {

enum class Overwrite { refuse, allow };

/// Throws a bad-input Error when `path` exists and overwriting is refused.
void refuse_existing_result(const std::filesystem::path& path, Overwrite overwrite);

/// Throws a bad-input Error before any work when `path` exists and overwriting is refused,
/// or when a file of its name cannot be created in its directory (probed).
void check_result_path(const std::filesystem::path& path, Overwrite overwrite);

/// Writes `text` to `path` atomically; throws an I/O Error on failure.
void write_result_file(const std::filesystem::path& path, const std::string& text);

}  // namespace simapp::io
