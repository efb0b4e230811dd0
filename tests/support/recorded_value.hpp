#pragma once
/// A number as a test's record (RecordProperty) shows it: in scientific notation, so that the
/// round-off differences the tests measure do not print as 0.000000.
#include <cstdio>
#include <string>

namespace simapp::testing {

/// `value` as the test's record shows it: 1.234e-16.
inline std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

}  // namespace simapp::testing
