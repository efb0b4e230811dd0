#pragma once
/// execution.precision: the floating-point type of the state, its fluxes and the tiles
/// (docs/model.md, "Precision"). Time, dt, the hydrostatic background, the step values, the
/// microphysics and the global sums are double in either.
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "foundation/name_table.hpp"

namespace simapp {

enum class Precision { float64, float32 };

inline constexpr std::array<std::pair<Precision, std::string_view>, 2> precision_names{{
    {Precision::float64, "float64"},
    {Precision::float32, "float32"},
}};

constexpr std::string_view to_string(Precision precision) { return name_in(precision_names, precision); }

/// Bytes a value of the state takes in `precision`.
constexpr std::size_t value_bytes(Precision precision) { return precision == Precision::float32 ? 4 : 8; }

/// Calls `visit(T{})` with T the type of `precision`: double or float.
template <class Visit>
decltype(auto) with_precision(Precision precision, Visit&& visit) {
  if (precision == Precision::float32) return visit(float{});
  return visit(double{});
}

}  // namespace simapp
