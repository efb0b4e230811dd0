#pragma once
/// The health check of one cell (kernels/diagnostics/health_check.hpp), shared by the check
/// kernel and the persistent kernel. Include this only from kernel sources.
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/backend/atomics.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// -1 when the cell is healthy, else the variable that is not finite or speed_finding.
SIMAPP_HOST_DEVICE inline int health_finding_at(const FieldView<const double>& state, const HydrostaticView& background,
                                                int k, int i) {
  constexpr double largest = std::numeric_limits<double>::max();
  double q[var::count];
  for (int v = 0; v < var::count; ++v) {
    q[v] = state(v, k, i);
    if (!(fabs(q[v]) <= largest)) return v;  // NaN or ±inf
  }
  const double density = q[var::dens] + background.cell_density(k);
  const double rho_theta = q[var::rhot] + background.cell_rho_theta(k);
  const double sound = sqrt(physics::gamma * physics::pressure(rho_theta) / density);
  const double speed_x = fabs(q[var::umom] / density) + sound;
  const double speed_z = fabs(q[var::wmom] / density) + sound;
  // Written so that NaN (ρ ≤ 0 or ρθ ≤ 0) fails too.
  return speed_x <= numerics::max_speed && speed_z <= numerics::max_speed ? -1 : speed_finding;
}

/// Checks cell (i, k) of this rank and latches what it finds into `record` as check number
/// record->checks_run: the first failed check keeps its record; within it, the first cell.
SIMAPP_HOST_DEVICE inline void check_cell_health(const FieldView<const double>& state,
                                                 const HydrostaticView& background, const CellGeometry& geometry,
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

}  // namespace simapp
