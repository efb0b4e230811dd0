#include "kernels/diagnostics/flow_statistics.hpp"

#include <algorithm>

#include "kernels/backend/parallel_for.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

namespace {

std::int64_t group_count(std::int64_t cells) { return (cells + statistics_group_cells - 1) / statistics_group_cells; }

/// 1/Δ along each momentum's axis: x, (y,) z.
template <int Axes>
struct InverseSpacings {
  double along[Axes];
};

/// 1/Δ along x, (y,) z.
template <int Dims>
InverseSpacings<ModelVariables<Dims>::momenta> inverse_spacings(const CellGeometry<Dims>& geometry) {
  if constexpr (Dims == 3)
    return {{1.0 / geometry.dx, 1.0 / geometry.dy, 1.0 / geometry.dz}};
  else
    return {{1.0 / geometry.dx, 1.0 / geometry.dz}};
}

/// Adds the cell of row k whose variables (of the model V) `load(v)` gives.
template <class V, class Load>
SIMAPP_HOST_DEVICE void add_cell(StatisticsSums& sums, const Load& load, const HydrostaticView& background, int k,
                                 const InverseSpacings<V::momenta>& inverse_spacing) {
  const double r = load(V::dens) + background.cell_density(k);
  double velocity[V::momenta];
  double velocity_squared = 0.0;  // u·u + w·w (+ v·v in between): the sum the energy always had
  for (int a = 0; a < V::momenta; ++a) {
    velocity[a] = load(V::momentum(a)) / r;
    velocity_squared += velocity[a] * velocity[a];
  }
  const double background_rho_theta = background.cell_rho_theta(k);
  const double theta = (load(V::rhot) + background_rho_theta) / r;
  const double p = physics::pressure(r * theta);
  sums.mass.add(r, density_scale_bits);
  sums.energy.add(r * velocity_squared + r * physics::cv * physics::temperature(theta, p), energy_scale_bits);
  sums.kinetic.add(0.5 * r * velocity_squared, energy_scale_bits);
  const double theta_prime = theta - background_rho_theta / background.cell_density(k);
  sums.min_theta_prime = min_or_nan(sums.min_theta_prime, theta_prime);
  sums.max_theta_prime = max_or_nan(sums.max_theta_prime, theta_prime);
  const double sound = sqrt(physics::gamma * p / r);
  for (int a = 0; a < V::momenta; ++a)
    sums.max_signal_rate = max_or_nan(sums.max_signal_rate, (fabs(velocity[a]) + sound) * inverse_spacing.along[a]);
  sums.max_abs_u = max_or_nan(sums.max_abs_u, fabs(velocity[0]));
  if constexpr (V::momenta == 3) sums.max_abs_v = max_or_nan(sums.max_abs_v, fabs(velocity[1]));
  sums.max_abs_w = max_or_nan(sums.max_abs_w, fabs(velocity[V::momenta - 1]));
}

/// Both passes over `cells` cells; `add(sums, n)` adds cell n (i fastest), whose density of
/// tracer t (ρ̄_x + ρ_x′) is `tracer_density(t, n)`. A lane sums each tracer over its cells after
/// the dry statistics, so each variable is read once.
template <class AddCell, class TracerDensity>
void reduce_cells(const Stream& stream, std::int64_t cells, const AddCell& add, const TracerDensity& tracer_density,
                  StatisticsSums* partials, StatisticsSums* records, const TracerMassSums& tracers) {
  const auto groups = static_cast<int>(group_count(cells));
  parallel_for(
      "statistics_partials", stream, IndexBox{0, statistics_lanes, 0, groups}, SIMAPP_LAMBDA(int lane, int group) {
        StatisticsSums sums;
        const std::int64_t first = std::int64_t{group} * statistics_group_cells;
        const std::int64_t end = first + statistics_group_cells < cells ? first + statistics_group_cells : cells;
        for (std::int64_t n = first + lane; n < end; n += statistics_lanes) add(sums, n);
        const std::int64_t partial = std::int64_t{group} * statistics_lanes + lane;
        partials[partial] = sums;
        for (int t = 0; t < tracers.count(); ++t) {
          ExactSum mass;
          for (std::int64_t n = first + lane; n < end; n += statistics_lanes)
            mass.add(tracer_density(t, n), density_scale_bits);
          tracers.partials[partial * tracers.count() + t] = mass;
        }
      });
  const auto partial_count = static_cast<std::int64_t>(statistics_partial_count(cells));
  parallel_for(
      "statistics_records", stream, IndexBox{0, 1, 0, static_cast<int>(statistics_record_count(cells))},
      SIMAPP_LAMBDA(int, int record) {
        StatisticsSums sums;
        const std::int64_t first = std::int64_t{record} * statistics_partials_per_record;
        const std::int64_t end = first + statistics_partials_per_record < partial_count
                                     ? first + statistics_partials_per_record
                                     : partial_count;
        for (std::int64_t p = first; p < end; ++p) sums.add(partials[p]);
        records[record] = sums;
        for (int t = 0; t < tracers.count(); ++t) {
          ExactSum mass;
          for (std::int64_t p = first; p < end; ++p) mass.add(tracers.partials[p * tracers.count() + t]);
          tracers.records[std::int64_t{record} * tracers.count() + t] = mass;
        }
      });
}

/// Cell n of the cells numbered i fastest, then j, then k, in layers of nx × ny (2-D: ny = 1, j = 0).
struct CellOfLayers {
  int i, j, k;
};
SIMAPP_HOST_DEVICE inline CellOfLayers cell_of_layers(std::int64_t n, int nx, int ny) {
  const std::int64_t row = n / nx;
  return {static_cast<int>(n % nx), static_cast<int>(row % ny), static_cast<int>(row / ny)};
}

}  // namespace

std::size_t statistics_partial_count(std::int64_t cells) {
  return static_cast<std::size_t>(group_count(cells)) * statistics_lanes;
}

std::size_t statistics_record_count(std::int64_t cells) {
  const auto partials = statistics_partial_count(cells);
  return (partials + statistics_partials_per_record - 1) / statistics_partials_per_record;
}

template <class Real, int Dims>
void reduce_statistics(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
                       const CellGeometry<Dims>& geometry, StatisticsSums* partials, StatisticsSums* records,
                       const TracerMassSums& tracers) {
  using V = ModelVariables<Dims>;
  const int nx = state.shape.nx;
  const InverseSpacings<V::momenta> inverse_spacing = inverse_spacings(geometry);
  // Cell n, i fastest, then j (3-D), then k: each dimension divides n by what its rows need.
  if constexpr (Dims == 3) {
    const int ny = state.shape.ny;
    reduce_cells(
        stream, std::int64_t{nx} * ny * state.shape.nz,
        SIMAPP_LAMBDA(StatisticsSums & sums, std::int64_t n) {
          const CellOfLayers c = cell_of_layers(n, nx, ny);
          add_cell<V>(
              sums, [&](int v) -> double { return state(v, c.k, c.j, c.i); }, background, c.k, inverse_spacing);
        },
        SIMAPP_LAMBDA(int t, std::int64_t n) {
          const CellOfLayers c = cell_of_layers(n, nx, ny);
          return double(state(tracers.tracers.first + t, c.k, c.j, c.i)) + tracers.background.cell_value(t, c.k);
        },
        partials, records, tracers);
  } else {
    reduce_cells(
        stream, std::int64_t{nx} * state.shape.nz,
        SIMAPP_LAMBDA(StatisticsSums & sums, std::int64_t n) {
          const CellOfLayers c = cell_of_layers(n, nx, 1);
          add_cell<V>(
              sums, [&](int v) -> double { return state(v, c.k, c.i); }, background, c.k, inverse_spacing);
        },
        SIMAPP_LAMBDA(int t, std::int64_t n) {
          const CellOfLayers c = cell_of_layers(n, nx, 1);
          return double(state(tracers.tracers.first + t, c.k, c.i)) + tracers.background.cell_value(t, c.k);
        },
        partials, records, tracers);
  }
}

#define SIMAPP_STATISTICS_OF(Real, Dims)                                                                   \
  template void reduce_statistics<Real, Dims>(const Stream&, FieldOf<const Real, Dims>, HydrostaticView,   \
                                              const CellGeometry<Dims>&, StatisticsSums*, StatisticsSums*, \
                                              const TracerMassSums&);
SIMAPP_STATISTICS_OF(double, 2)
SIMAPP_STATISTICS_OF(double, 3)
SIMAPP_STATISTICS_OF(float, 2)
SIMAPP_STATISTICS_OF(float, 3)
#undef SIMAPP_STATISTICS_OF

}  // namespace simapp
