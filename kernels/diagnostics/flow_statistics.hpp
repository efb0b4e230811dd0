#pragma once
/// The statistics of the state over interior cells (docs/model.md, "Diagnostics"), reduced where
/// the state is (a CUDA kernel, or OpenMP host loops). With ρ = ρ̄_c + ρ′, u = ρu/ρ, (v = ρv/ρ,)
/// w = ρw/ρ, θ = (ρ̄θ̄_c + (ρθ)′)/ρ, p = C₀(ρθ)^γ, T = θ (p/p₀)^(R_d/c_p) and c = √(γp/ρ):
///   mass           Σ ρ
///   total energy   Σ e,  e = ρ(u² + w²) + ρ c_v T   (u² + v² + w² in the 3-D model)
///   kinetic energy Σ ½ρ(u² + w²)                    (likewise)
///   max |u|, |v|, |w|; min and max θ′ = θ − ρ̄θ̄_c/ρ̄_c (the snapshots' theta_prime, bit for bit)
///   max over cells and axes a of (|u_a| + c)/Δ_a, the fastest signal across a cell (s⁻¹): times dt,
///   the Courant number the run reached.
///   tracer masses  Σ (ρ̄_x,c(k) + ρ_x′) for each tracer of the state (TracerMassSums)
/// Sums are exact fixed-point (ExactSum) and a maximum or minimum is one of the values whatever
/// the order (NaN wins, so a blown-up state shows), so the statistics do not depend on how the
/// cells are split among threads, blocks, backends or ranks.
///
/// Two passes, so that a GPU reads the state once, coalesced, with tens of thousands of threads:
/// the cells, taken in order (i fastest), are cut into groups of `statistics_group_cells`; in a
/// group, lane l of `statistics_lanes` takes cells l, l + lanes, …, giving one partial each;
/// then each record sums `statistics_partials_per_record` consecutive partials. The caller adds
/// the few records (statistics_record_count) on the host.
#include <cstddef>
#include <cstdint>
#include <limits>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/diagnostics/exact_sum.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Fixed-point resolutions: density to 2^-60 kg m⁻³, energy densities to 2^-42 J m⁻³.
inline constexpr int density_scale_bits = 60;
inline constexpr int energy_scale_bits = 42;

inline constexpr int statistics_lanes = 32;          ///< a warp: neighbouring lanes read neighbouring cells
inline constexpr int statistics_group_cells = 4096;  ///< 128 cells a lane
inline constexpr int statistics_partials_per_record = 256;

/// The larger of two values, NaN when either is.
SIMAPP_HOST_DEVICE inline double max_or_nan(double a, double b) { return a > b || a != a ? a : b; }
/// The smaller of two values, NaN when either is.
SIMAPP_HOST_DEVICE inline double min_or_nan(double a, double b) { return a < b || a != a ? a : b; }

/// The statistics of some cells, unscaled densities (multiply the sums by the cell volume).
struct StatisticsSums {
  ExactSum mass;     ///< Σ ρ at 2^-density_scale_bits
  ExactSum energy;   ///< Σ e at 2^-energy_scale_bits
  ExactSum kinetic;  ///< Σ ½ρ|u|² at 2^-energy_scale_bits
  double max_abs_u = 0.0, max_abs_v = 0.0, max_abs_w = 0.0;
  double min_theta_prime = std::numeric_limits<double>::infinity();
  double max_theta_prime = -std::numeric_limits<double>::infinity();
  double max_signal_rate = 0.0;  ///< max of (|u_a| + c)/Δ_a, s⁻¹

  /// Adds the statistics of other cells.
  SIMAPP_HOST_DEVICE void add(const StatisticsSums& other) {
    mass.add(other.mass);
    energy.add(other.energy);
    kinetic.add(other.kinetic);
    max_abs_u = max_or_nan(max_abs_u, other.max_abs_u);
    max_abs_v = max_or_nan(max_abs_v, other.max_abs_v);
    max_abs_w = max_or_nan(max_abs_w, other.max_abs_w);
    min_theta_prime = min_or_nan(min_theta_prime, other.min_theta_prime);
    max_theta_prime = max_or_nan(max_theta_prime, other.max_theta_prime);
    max_signal_rate = max_or_nan(max_signal_rate, other.max_signal_rate);
  }
};

/// Where the passes put the masses of the state's tracers (an empty range: none), one ExactSum
/// per tracer at 2^-density_scale_bits (unscaled densities, as StatisticsSums::mass): partial or
/// record p's tracer t at [p · count() + t], beside StatisticsSums p. Their count is the run's,
/// so they live in arrays of their own rather than in StatisticsSums.
struct TracerMassSums {
  VarRange tracers{0, 0};
  TracerBackground background;   ///< ρ̄_x
  ExactSum* partials = nullptr;  ///< statistics_partial_count(cells) · count()
  ExactSum* records = nullptr;   ///< statistics_record_count(cells) · count()

  SIMAPP_HOST_DEVICE int count() const { return tracers.last - tracers.first; }
};

/// The partials the first pass writes for `cells` interior cells.
std::size_t statistics_partial_count(std::int64_t cells);
/// The records the second pass leaves for `cells` interior cells.
std::size_t statistics_record_count(std::int64_t cells);

/// Queues both passes over the interior of the state of the model of `Dims` dimensions (3-D: ρv
/// counts as ρu does; Δ_y = dy): `partials` (scratch, of statistics_partial_count cells) and
/// `records` (statistics_record_count) on the backend; the tracers' masses likewise in `tracers`.
/// The state's values (Real: double or float) are summed as doubles.
template <class Real, int Dims>
void reduce_statistics(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
                       const CellGeometry<Dims>& geometry, StatisticsSums* partials, StatisticsSums* records,
                       const TracerMassSums& tracers = {});

}  // namespace simapp
