#pragma once
/// The lines of a text, for tests that compare what a program printed or wrote line by line.
#include <sstream>
#include <string>
#include <vector>

namespace simapp::testing {

/// `text` split at its newlines (a last line without one counts too).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace simapp::testing
