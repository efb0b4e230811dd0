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
/// not finite, or V::count (speed_finding in 2-D) for a signal speed |u_j| + c beyond the bound
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

/// -1 when the cell is healthy, else the variable that is not finite or speed_finding.
SIMAPP_HOST_DEVICE inline int health_finding_at(const FieldView<const double, 2>& state,
                                                const HydrostaticView& background, int k, int i) {
  return health_finding_of<ModelVariables<2>>([&](int v) { return state(v, k, i); }, background, k);
}

/// Checks cell (i, k) of this rank and latches what it finds into `record` as check number
/// record->checks_run: the first failed check keeps its record; within it, the first cell.
SIMAPP_HOST_DEVICE inline void check_cell_health(const FieldView<const double, 2>& state,
                                                 const HydrostaticView& background, const CellGeometry<2>& geometry,
                                                 HealthRecord* record, int k, int i) {
  const int finding = health_finding_at(state, background, k, i);
  if (finding < 0) return;
  const std::int64_t check = record->checks_run;
  const std::int64_t first = atomic_compare_exchange(&record->failed_check, -1, check);
  if (first != -1 && first != check) return;  // an earlier check failed: its record stays
  const std::uint64_t global_nx = static_cast<std::uint64_t>(geometry.global_nx);
  const std::uint64_t global_cells = global_nx * static_cast<std::uint64_t>(geometry.global_nz);
  const std::uint64_t cell = static_cast<std::uint64_t>(finding) * global_cells +
                             static_cast<std::uint64_t>(geometry.k_offset + k) * global_nx +
                             static_cast<std::uint64_t>(geometry.i_offset + i);
  atomic_min(&record->first_cell, cell);
}

/// The 3-D model's check of cell (i, j, k): the record's cell is
/// v·NX·NY·NZ + k·NX·NY + j·NX + i (global indices), v = 5 for a speed.
SIMAPP_HOST_DEVICE inline void check_cell_health_3d(const FieldView<const double, 3>& state,
                                                    const HydrostaticView& background, const CellGeometry<3>& geometry,
                                                    HealthRecord* record, int k, int j, int i) {
  const int finding = health_finding_of<ModelVariables<3>>([&](int v) { return state(v, k, j, i); }, background, k);
  if (finding < 0) return;
  const std::int64_t check = record->checks_run;
  const std::int64_t first = atomic_compare_exchange(&record->failed_check, -1, check);
  if (first != -1 && first != check) return;
  const std::uint64_t nx = static_cast<std::uint64_t>(geometry.global_nx);
  const std::uint64_t layer = nx * static_cast<std::uint64_t>(geometry.global_ny);
  const std::uint64_t cells = layer * static_cast<std::uint64_t>(geometry.global_nz);
  const std::uint64_t cell =
      static_cast<std::uint64_t>(finding) * cells + static_cast<std::uint64_t>(geometry.k_offset + k) * layer +
      static_cast<std::uint64_t>(geometry.j_offset + j) * nx + static_cast<std::uint64_t>(geometry.i_offset + i);
  atomic_min(&record->first_cell, cell);
}

}  // namespace simapp
