#pragma once
/// The step number in the name of a numbered result file, `<prefix><digits><suffix>`
/// (fields_000012.nc, checkpoint_000012.h5, fields_000012_failed.nc).
#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace simapp::io {

/// The step in `name` = prefix + digits + suffix; -1 when the digits do not fit a long;
/// nullopt when the name is not of that form.
inline std::optional<long> numbered_name_step(std::string_view name, std::string_view prefix,
                                              std::string_view suffix = ".h5") {
  if (!name.starts_with(prefix) || !name.ends_with(suffix) || name.size() <= prefix.size() + suffix.size())
    return std::nullopt;
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (!std::ranges::all_of(digits, [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  long step = -1;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), step);
  return error == std::errc{} && end == digits.data() + digits.size() ? step : -1;
}

}  // namespace simapp::io
