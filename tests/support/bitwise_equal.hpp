#pragma once
/// Bit-for-bit equality of two arrays of doubles (NaNs and signed zeros compared as stored).
#include <cstring>
#include <vector>

namespace simapp::testing {

inline bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace simapp::testing
