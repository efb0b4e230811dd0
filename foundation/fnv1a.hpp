#pragma once
/// FNV-1a, the 64-bit Fowler–Noll–Vo hash of a run of bytes: the checksum of a checkpoint's header
/// and configuration, and of a benchmark's output bits.
#include <cstdint>
#include <string_view>

namespace simapp {

inline std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

}  // namespace simapp
