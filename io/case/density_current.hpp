#pragma once
/// The measures the density-current benchmark (case straka; Straka et al. 1993) is compared
/// by: the front position, the extremes of θ′ and of the wind; printed at the end of a run
/// and written to diagnostics.json.
#include <nlohmann/json.hpp>

#include "io/hdf5/snapshot_writer.hpp"

namespace simapp::io {

struct DensityCurrentMeasures {
  double time = 0.0;       ///< s
  double front = 0.0;      ///< m from the bubble's centre; NaN when no cell is below −1 K
  double theta_min = 0.0;  ///< θ′, K
  double theta_max = 0.0;
  double u_min = 0.0, u_max = 0.0;  ///< m s⁻¹
  double w_min = 0.0, w_max = 0.0;
};

/// θ′ at which the front is measured, K.
inline constexpr double front_isotherm = -1.0;

/// The measures of a whole-grid snapshot whose bubble started at x = xlen/2. The front is the
/// largest x on the lowest row where θ′ = −1 K (linear between cell centres, searched from the
/// right edge toward the centre), less the centre.
DensityCurrentMeasures density_current_measures(const Snapshot& snapshot);

/// The measures as diagnostics.json holds them (SI units, the front in m; null for NaN).
nlohmann::json density_current_json(const DensityCurrentMeasures& measures);

}  // namespace simapp::io
