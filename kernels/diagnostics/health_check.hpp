#pragma once
/// The health check run inside the step (execution.check_every): a kernel looks at every
/// interior cell and latches the first check that finds
///   a value that is not finite, or
///   a signal speed |u| + c or |w| + c above 450 m/s (c = √(γ p / ρ)), the bound the time
///   step is chosen for (dt = cfl · min(dx, dz) / 450 m/s): beyond it the Courant number
///   exceeds time.cfl and the scheme is no longer stable,
/// with the first offending cell (by variable, then global row, then column). A one-thread
/// kernel then counts the check and copies the record to host memory the host reads without
/// waiting (pinned memory, which a GPU writes directly).
#include <cstdint>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// What the checks found so far.
struct HealthRecord {
  static constexpr std::uint64_t no_cell = ~std::uint64_t{0};
  std::int64_t failed_check = -1;      ///< sequence number of the first check that failed; -1: none
  std::uint64_t first_cell = no_cell;  ///< in that check: v·NX·NZ + k·NX + i (global k, i); v = 4: speed
  std::int64_t checks_run = 0;         ///< checks counted so far
};

/// The finding code of a speed beyond the bound, in place of a variable index: the model's
/// count of variables.
template <int Dims>
inline constexpr int speed_finding = ModelVariables<Dims>::count;

/// Checks the interior cells of `state` of the model of `Dims` dimensions (this rank's, at global
/// offsets geometry.i_offset, (j_offset,) k_offset) and latches what it finds into `record` as
/// check number record->checks_run; the record's cell is v·NX·NZ + k·NX + i in 2-D,
/// v·NX·NY·NZ + k·NX·NY + j·NX + i in 3-D, v = speed_finding<Dims> for a speed.
template <class Real, int Dims>
void check_health(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
                  const CellGeometry<Dims>& geometry, HealthRecord* record);

/// record->checks_run += 1, then *mirror = *record.
void count_health_check(const Stream& stream, HealthRecord* record, HealthRecord* mirror);

}  // namespace simapp
