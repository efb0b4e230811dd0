#pragma once
/// The model's test cases (docs/model.md, "Initial state"): each declared in its own header of
/// kernels/cases/ (see case_defaults.hpp for what a case declares) and listed here once, as an
/// enumerator of CaseName and a type of Cases. Everything that differs between cases is read
/// from the list: configuration names, bumps, backgrounds, perturbations, boundaries, forcing and
/// measures.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "foundation/name_table.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/cases/collision.hpp"
#include "kernels/cases/density_current.hpp"
#include "kernels/cases/dry_bubble.hpp"
#include "kernels/cases/gravity_waves.hpp"
#include "kernels/cases/injection.hpp"
#include "kernels/cases/moist_bubble.hpp"
#include "kernels/cases/moist_thermal.hpp"
#include "kernels/cases/rest.hpp"
#include "kernels/cases/straka.hpp"
#include "kernels/cases/supercell.hpp"
#include "kernels/cases/thermal.hpp"

namespace simapp {

/// A list of case types.
template <class... Case>
struct CaseList {};

/// Every case, in documentation order: the enumerators of CaseName and the types of Cases in
/// the same order.
enum class CaseName {
  thermal,
  collision,
  gravity_waves,
  density_current,
  injection,
  rest,
  straka,
  moist_thermal,
  dry_bubble,
  moist_bubble,
  supercell
};
using Cases = CaseList<Thermal, Collision, GravityWaves, DensityCurrent, Injection, Rest, Straka, MoistThermal,
                       DryBubble, MoistBubble, Supercell>;

/// `visit(Case{})` for the case at `index` of the list: a chain of comparisons, the same on the
/// host and on the device (no table of functions).
template <class Visitor, class First, class... Others>
SIMAPP_HOST_DEVICE constexpr decltype(auto) with_case_at(int index, const Visitor& visit, CaseList<First, Others...>) {
  if constexpr (sizeof...(Others) == 0) {
    return visit(First{});
  } else {
    if (index == 0) return visit(First{});
    return with_case_at(index - 1, visit, CaseList<Others...>{});
  }
}

/// `visit(Case{})` for the case `name` names.
template <class Visitor>
SIMAPP_HOST_DEVICE constexpr decltype(auto) with_case(CaseName name, const Visitor& visit) {
  return with_case_at(static_cast<int>(name), visit, Cases{});
}

/// Each enumerator with the configuration name of its case.
template <class... Case, std::size_t... Index>
constexpr std::array<std::pair<CaseName, std::string_view>, sizeof...(Case)> names_of(CaseList<Case...>,
                                                                                      std::index_sequence<Index...>) {
  return {{{static_cast<CaseName>(Index), Case::name}...}};
}

/// Every case with its configuration name, in documentation order.
template <class... Case>
constexpr auto names_of(CaseList<Case...> cases) {
  return names_of(cases, std::index_sequence_for<Case...>{});
}
inline constexpr auto case_names = names_of(Cases{});

/// The configuration name of a case.
constexpr std::string_view to_string(CaseName name) { return name_in(case_names, name); }

/// Parses a configuration name; nullopt when it names no case.
constexpr std::optional<CaseName> parse_case_name(std::string_view text) {
  for (const auto& [value, name] : case_names)
    if (name == text) return value;
  return std::nullopt;
}

/// Whether case `name` is made of a bump (the one perturbation.* configures).
constexpr bool has_bump(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::has_bump; });
}

/// Whether case `name` starts with water, which only a state with water (physics.microphysics) holds.
constexpr bool carries_water(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::carries_water; });
}

/// The sounding case `name`'s background is integrated from (none: case_background's).
constexpr CaseSounding case_sounding(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::sounding; });
}

/// Whether case `name` is a 3-D one only.
constexpr bool three_d_only(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::three_d_only; });
}

/// The case's own bump in the x–z plane of a domain `xlen` wide (amplitude 0: none); model_bump
/// makes it the 3-D model's.
SIMAPP_HOST_DEVICE inline Bump<2> case_bump(CaseName name, double xlen) {
  return with_case(name, [&](auto c) { return decltype(c)::bump(xlen); });
}

/// The background case `name` stands on.
SIMAPP_HOST_DEVICE inline HydrostaticBackground case_background(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::background(); });
}

/// The domain's four sides in case `name`.
constexpr BoundaryConditions<2> case_boundaries(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::boundaries(); });
}

/// The gravity-wave forcing of every stage, tend(ρw) += source(x, (y,) z) · ρ̄_c(k): the case's
/// momentum source made of `bump` (the case's bump as configured; amplitude 0: none).
template <int Dims>
SIMAPP_HOST_DEVICE inline Bump<Dims> gravity_wave_source(CaseName name, const Bump<Dims>& bump) {
  return with_case(name, [&](auto c) { return decltype(c)::momentum_source(bump); });
}

/// The perturbation of case `name` at the point `at` ((x, z) in 2-D, (x, y, z) in 3-D), made of
/// `bump`: the case's bump (case_bump) or the one configured in its place.
template <int Dims, class... Coordinates>
SIMAPP_HOST_DEVICE inline PointPerturbation case_perturbation(CaseName name, const Bump<Dims>& bump,
                                                              Coordinates... at) {
  return with_case(name, [&](auto c) { return decltype(c)::perturbation(bump, at...); });
}

/// What case `name` is measured by at the end of a run.
constexpr CaseMeasures case_measures(CaseName name) {
  return with_case(name, [](auto c) { return decltype(c)::measures; });
}

}  // namespace simapp
