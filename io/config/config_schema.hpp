#pragma once
/// The configuration keys as data: one table entry per key drives parsing, validation,
/// the resolved YAML and the reference in inputs/README.md.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "solver/spec/run_spec.hpp"

namespace simapp::io {

/// The type a key's value must have.
enum class ValueType {
  integer,       ///< a decimal integer
  real,          ///< a finite number
  string,        ///< non-empty text
  enumeration,   ///< one of the key's allowed names
  integer_pair,  ///< two integers: [a, b] in YAML, "a,b" in an override; the bound applies to each
  name_list,     ///< comma-separated names from the key's allowed names, each at most once; "all": every one
};

/// Whether the bound itself is an allowed value.
enum class Bound { inclusive, exclusive };

/// The smallest value a number key accepts.
struct LowerBound {
  double value;
  Bound bound;
};

/// A checked value: integer → int, real → double, string and enumeration → std::string,
/// integer_pair → IntegerPair, name_list → NameList.
using IntegerPair = std::array<int, 2>;
using NameList = std::vector<std::string>;
using ConfigValue = std::variant<int, double, std::string, IntegerPair, NameList>;

/// One configuration key: what it accepts, what it means, and where it goes in RunSpec.
struct ConfigKey {
  std::string_view path;                  ///< dotted path, e.g. "grid.nx"
  ValueType type;                         ///< the type its value must have
  std::string_view unit;                  ///< SI unit or counted thing; empty when none
  std::optional<LowerBound> minimum;      ///< integer and real keys only
  std::optional<double> maximum;          ///< the largest value allowed; integer and real keys only
  std::vector<std::string_view> allowed;  ///< enumeration and name_list keys only, in documentation order
  std::string_view doc;                   ///< one-line meaning
  std::function<void(RunSpec&, const ConfigValue&)> set;  ///< stores a checked value
  std::function<ConfigValue(const RunSpec&)> get;         ///< reads it back; RunSpec{} gives the default
};

/// Every configuration key, in documentation order.
const std::vector<ConfigKey>& config_keys();

/// The key at a dotted path; nullptr when there is none.
const ConfigKey* find_config_key(std::string_view path);

}  // namespace simapp::io
