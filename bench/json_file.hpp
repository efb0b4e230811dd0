#pragma once
/// write_json_file: a benchmark's results into the file its --json names, or its one-line error.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace simapp {

/// Writes `document` to `path`; false, with "PROGRAM: error: cannot write PATH" on stderr, where
/// it could not.
inline bool write_json_file(const std::string& path, const nlohmann::json& document, const char* program) {
  std::ofstream out(path);
  out << document.dump(2) << "\n";
  if (out) return true;
  std::fprintf(stderr, "%s: error: cannot write %s\n", program, path.c_str());
  return false;
}

}  // namespace simapp
