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
  date_time,     ///< a date and time in UTC as ISO 8601 writes it (io/hdf5/cf_time.hpp), stored as text
  enumeration,   ///< one of the key's allowed names
  integer_list,  ///< two or three integers: [a, b] or [a, b, c] in YAML, "a,b" or "a,b,c" in an override; the
                 ///< bound applies to each
  real_list,     ///< two or three numbers, written as an integer_list is; the bound applies to each
  name_list,     ///< comma-separated names from the key's allowed names, each at most once; "all": every one;
                 ///< a key without allowed names takes any names, or none (empty)
};

/// Whether the bound itself is an allowed value.
enum class Bound { inclusive, exclusive };

/// Whether a real or real_list key takes +∞, written .inf (YAML) or inf, beyond its maximum.
enum class Infinity { refused, allowed };

/// The smallest value a number key accepts.
struct LowerBound {
  double value;
  Bound bound;
};

/// A checked value: integer → int, real → double, string, date_time and enumeration → std::string,
/// integer_list → IntegerList, real_list → RealList, name_list → NameList.
using IntegerList = std::vector<int>;
using RealList = std::vector<double>;
using NameList = std::vector<std::string>;
using ConfigValue = std::variant<int, double, std::string, IntegerList, RealList, NameList>;

/// One configuration key: what it accepts, what it means, and where it goes in RunSpec.
struct ConfigKey {
  std::string_view path;                  ///< dotted path, e.g. "grid.nx"
  ValueType type;                         ///< the type its value must have
  std::string_view unit;                  ///< SI unit or counted thing; empty when none
  std::optional<LowerBound> minimum;      ///< number and list keys only
  std::optional<double> maximum;          ///< the largest value allowed; integer and real keys only
  std::vector<std::string_view> allowed;  ///< enumeration and name_list keys only, in documentation order
  std::string_view doc;                   ///< one-line meaning
  std::function<void(RunSpec&, const ConfigValue&)> set;  ///< stores a checked value
  std::function<ConfigValue(const RunSpec&)> get;         ///< reads it back; RunSpec{} gives the default
  /// Whether the resolved configuration (resolved_yaml, run.json) lists the key for a spec: the
  /// keys of the 3-D model where they differ from the 2-D model's values, perturbation.* where
  /// given; empty: always.
  std::function<bool(const RunSpec&)> listed = {};
  Infinity infinity = Infinity::refused;  ///< real and real_list keys only
};

/// Whether the resolved configuration of `spec` lists `key`.
inline bool is_listed(const ConfigKey& key, const RunSpec& spec) { return !key.listed || key.listed(spec); }

/// Every configuration key, in documentation order.
const std::vector<ConfigKey>& config_keys();

/// The key at a dotted path; nullptr when there is none.
const ConfigKey* find_config_key(std::string_view path);

}  // namespace simapp::io
