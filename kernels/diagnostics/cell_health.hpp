#pragma once
/// The health check of one cell (kernels/diagnostics/health_check.hpp), shared by the check
/// kernel and the persistent kernel. Include this only from kernel sources.
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "kernels/backend/atomics.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Whether |u_a| + c ≤ the bound along every axis a; written so that NaN (ρ ≤ 0 or ρθ ≤ 0) fails.
template <class V, int... a>
SIMAPP_HOST_DEVICE inline bool speeds_within(const double q[V::count], double density, double sound,
                                             std::integer_sequence<int, a...>) {
  return ((fabs(q[V::momentum(a)] / density) + sound <= numerics::max_speed) && ...);
}

/// -1 when a cell of the model whose variables are V is healthy, else the first variable that is
/// not finite, or V::count (speed_finding) for a signal speed |u_j| + c beyond the bound
/// along some axis; `load(v)` gives variable v of a cell of row k.
template <class V, class Load>
SIMAPP_HOST_DEVICE inline int health_finding_of(const Load& load, const HydrostaticView& background, int k) {
  constexpr double largest = std::numeric_limits<double>::max();
  double q[V::count];
  for (int v = 0; v < V::count; ++v) {
    q[v] = load(v);
    if (!(fabs(q[v]) <= largest)) return v;  // NaN or ±inf
  }
  const double density = q[V::dens] + background.cell_density(k);
  const double rho_theta = q[V::rhot] + background.cell_rho_theta(k);
  const double sound = sqrt(physics::gamma * physics::pressure(rho_theta) / density);
  return speeds_within<V>(q, density, sound, std::make_integer_sequence<int, V::momenta>{}) ? -1 : V::count;
}

/// The record's code of finding `finding` at cell (i, j, k) of this rank (2-D: j = 0):
/// v·NX·NZ + k·NX + i in 2-D, v·NX·NY·NZ + k·NX·NY + j·NX + i in 3-D (global indices).
template <int Dims>
SIMAPP_HOST_DEVICE inline std::uint64_t health_cell_code(const CellGeometry<Dims>& geometry, int finding, int k,
                                                         [[maybe_unused]] int j, int i) {
  const std::uint64_t nx = static_cast<std::uint64_t>(geometry.global_nx);
  if constexpr (Dims == 3) {
    const std::uint64_t layer = nx * static_cast<std::uint64_t>(geometry.global_ny);
    const std::uint64_t cells = layer * static_cast<std::uint64_t>(geometry.global_nz);
    return static_cast<std::uint64_t>(finding) * cells + static_cast<std::uint64_t>(geometry.k_offset + k) * layer +
           static_cast<std::uint64_t>(geometry.j_offset + j) * nx + static_cast<std::uint64_t>(geometry.i_offset + i);
  } else {
    const std::uint64_t cells = nx * static_cast<std::uint64_t>(geometry.global_nz);
    return static_cast<std::uint64_t>(finding) * cells + static_cast<std::uint64_t>(geometry.k_offset + k) * nx +
           static_cast<std::uint64_t>(geometry.i_offset + i);
  }
}

/// Checks cell (i, j, k) of this rank (2-D: j = 0) of the model of `Dims` dimensions and latches
/// what it finds into `record` as check number record->checks_run: the first failed check keeps
/// its record; within it, the first cell (health_cell_code). The state's values (T: double or
/// float, const or not) are checked as doubles.
template <class T, int Dims>
SIMAPP_HOST_DEVICE inline void check_cell_health(const FieldView<T, Dims>& state, const HydrostaticView& background,
                                                 const CellGeometry<Dims>& geometry, HealthRecord* record, int k,
                                                 [[maybe_unused]] int j, int i) {
  const int finding = health_finding_of<ModelVariables<Dims>>(
      [&](int v) -> double {
        if constexpr (Dims == 3)
          return state(v, k, j, i);
        else
          return state(v, k, i);
      },
      background, k);
  if (finding < 0) return;
  const std::int64_t check = record->checks_run;
  const std::int64_t first = atomic_compare_exchange(&record->failed_check, -1, check);
  if (first != -1 && first != check) return;  // an earlier check failed: its record stays
  atomic_min(&record->first_cell, health_cell_code(geometry, finding, k, j, i));
}

}  // namespace simapp
