#pragma once
/// The model's test cases (docs/model.md, "Initial state").
#include <array>
#include <optional>
#include <string_view>

#include "foundation/name_table.hpp"

namespace simapp {

enum class CaseName { thermal, collision, gravity_waves, density_current, injection, rest, straka };

/// Every case with its configuration name, in documentation order.
inline constexpr std::array<std::pair<CaseName, std::string_view>, 7> case_names{{
    {CaseName::thermal, "thermal"},
    {CaseName::collision, "collision"},
    {CaseName::gravity_waves, "gravity_waves"},
    {CaseName::density_current, "density_current"},
    {CaseName::injection, "injection"},
    {CaseName::rest, "rest"},
    {CaseName::straka, "straka"},
}};

/// The configuration name of a case.
constexpr std::string_view to_string(CaseName name) { return name_in(case_names, name); }

/// Parses a configuration name; nullopt when it names no case.
constexpr std::optional<CaseName> parse_case_name(std::string_view text) {
  for (const auto& [value, name] : case_names)
    if (name == text) return value;
  return std::nullopt;
}

}  // namespace simapp
