#pragma once
/// Enumerations with configuration names: a table of (enumerator, name) pairs per enumeration,
/// read by the configuration loader one way and by reports the other.
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace simapp {

/// The name `value` has in `names` ("unknown" when it has none).
template <class Enum, std::size_t N>
constexpr std::string_view name_in(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value) {
  for (const auto& [entry, name] : names)
    if (entry == value) return name;
  return "unknown";
}

}  // namespace simapp
