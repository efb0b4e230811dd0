#include "solver/diagnostics/diagnostics.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

/// One value for every kind of NaN, and +0 for −0, so that the statistics' bits do not depend
/// on which cell's value a maximum or minimum kept.
double canonical(double value) { return std::isnan(value) ? std::nan("") : value + 0.0; }

/// Every rank's `count` sums at `local`, added in rank order into `count` sums (collective).
template <class Sums>
std::vector<Sums> sum_over_ranks(const Sums* local, int count, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const auto size = static_cast<std::size_t>(count);
  std::vector<Sums> all(static_cast<std::size_t>(ranks) * size);
  const int bytes = static_cast<int>(sizeof(Sums) * size);
  MPI_Allgather(local, bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm);
  std::vector<Sums> sums(size);
  for (std::size_t n = 0; n < all.size(); ++n) sums[n % size].add(all[n]);
  return sums;
}

/// Precipitation and clipped water to 2^-surface_scale_bits kg m⁻², up to 2^12 kg m⁻² (4 m of water) a column.
constexpr int surface_scale_bits = 50;

/// The surface fields of some columns: exact sums of precipitation_amount, clipped water and the
/// rain rate (m s⁻¹, at 2^-density_scale_bits), the largest rain rate and the columns' count.
struct SurfaceSums {
  ExactSum precipitation, clipped, rain_rate;
  double max_rain_rate = 0.0;
  std::int64_t columns = 0;

  void add(const SurfaceSums& other) {
    precipitation.add(other.precipitation);
    clipped.add(other.clipped);
    rain_rate.add(other.rain_rate);
    max_rain_rate = max_or_nan(max_rain_rate, other.max_rain_rate);
    columns += other.columns;
  }
};

}  // namespace

double water_of(const std::vector<double>& tracer_mass, double precipitated) {
  double airborne = 0.0;
  for (int t = 0; t < water_tracers; ++t) airborne += tracer_mass.at(static_cast<std::size_t>(t));
  return airborne + precipitated;
}

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now) {
  DiagnosticsChange change{
      (now.mass - start.mass) / start.mass, (now.total_energy - start.total_energy) / start.total_energy, {}};
  for (std::size_t t = 0; t < now.tracer_mass.size() && t < start.tracer_mass.size(); ++t)
    change.tracer_mass.push_back(start.tracer_mass[t] == 0.0
                                     ? std::nan("")  // no mass to change relative to (a bump the case lacks)
                                     : (now.tracer_mass[t] - start.tracer_mass[t]) / start.tracer_mass[t]);
  if (start.water && now.water)
    change.water = WaterChange{(now.water->water - start.water->water) / start.water->water,
                               now.water->clipped - start.water->clipped};
  return change;
}

StatisticsReducer::StatisticsReducer(Backend backend, std::int64_t cells, double cell_volume, double dt, int tracers,
                                     MPI_Comm comm, int water, std::int64_t columns, double column_area)
    : partials_(backend, statistics_partial_count(cells)),
      records_(backend, statistics_record_count(cells)),
      host_records_(backend, statistics_record_count(cells)),
      tracer_partials_(backend, statistics_partial_count(cells) * static_cast<std::size_t>(tracers)),
      tracer_records_(backend, statistics_record_count(cells) * static_cast<std::size_t>(tracers)),
      host_tracer_records_(backend, statistics_record_count(cells) * static_cast<std::size_t>(tracers)),
      host_surface_(backend, water > 0 ? surface_water_fields * static_cast<std::size_t>(columns) : 0),
      tracers_(tracers),
      water_(water),
      ready_(backend),
      cell_volume_(cell_volume),
      dt_(dt),
      column_area_(column_area),
      comm_(comm) {}

template <class Real, int Dims>
void StatisticsReducer::queue(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
                              TracerBackground tracer_background, const CellGeometry<Dims>& geometry,
                              SurfaceWater surface) const {
  const TracerMassSums tracers{tracers_of(state.shape), tracer_background, tracer_partials_.data(),
                               tracer_records_.data()};
  reduce_statistics<Real, Dims>(stream, state, background, geometry, partials_.data(), records_.data(), tracers);
  device::copy_async(stream, host_records_.data(), records_.data(), records_.size() * sizeof(StatisticsSums),
                     device::CopyDirection::device_to_host);
  if (tracers_ > 0)
    device::copy_async(stream, host_tracer_records_.data(), tracer_records_.data(),
                       tracer_records_.size() * sizeof(ExactSum), device::CopyDirection::device_to_host);
  if (water_ > 0)  // the three fields lie one after the other, precipitation first
    device::copy_async(stream, host_surface_.data(), surface.precipitation, host_surface_.size() * sizeof(double),
                       device::CopyDirection::device_to_host);
  ready_.record(stream);
}

#define SIMAPP_STATISTICS_QUEUE_OF(Real, Dims)                                                                  \
  template void StatisticsReducer::queue<Real, Dims>(const Stream&, FieldOf<const Real, Dims>, HydrostaticView, \
                                                     TracerBackground, const CellGeometry<Dims>&, SurfaceWater) const;
SIMAPP_STATISTICS_QUEUE_OF(double, 2)
SIMAPP_STATISTICS_QUEUE_OF(double, 3)
SIMAPP_STATISTICS_QUEUE_OF(float, 2)
SIMAPP_STATISTICS_QUEUE_OF(float, 3)
#undef SIMAPP_STATISTICS_QUEUE_OF

FlowStatistics StatisticsReducer::collect() const {
  ready_.wait();
  StatisticsSums local;
  for (std::size_t r = 0; r < host_records_.size(); ++r) local.add(host_records_.data()[r]);
  const StatisticsSums sums = sum_over_ranks(&local, 1, comm_).front();
  const std::vector<ExactSum> tracer_sums = this->tracer_sums();
  std::vector<double> tracer_masses;
  for (const ExactSum& sum : tracer_sums) tracer_masses.push_back(sum.value(density_scale_bits) * cell_volume_);
  // With water, ρ_d = ρ − ρ_v − ρ_c − ρ_r: Σρ_d is Σρ less the water's sums, exactly.
  ExactSum mass = sums.mass;
  for (int t = 0; t < water_; ++t) mass.subtract(tracer_sums[static_cast<std::size_t>(t)]);
  Diagnostics totals{mass.value(density_scale_bits) * cell_volume_, sums.energy.value(energy_scale_bits) * cell_volume_,
                     tracer_masses};
  if (water_ > 0) {
    WaterTotals water = surface_totals();
    water.water = water_of(tracer_masses, water.precipitation);
    totals.water = water;
  }
  return {std::move(totals),
          sums.kinetic.value(energy_scale_bits) * cell_volume_,
          canonical(sums.max_abs_u),
          canonical(sums.max_abs_v),
          canonical(sums.max_abs_w),
          canonical(sums.min_theta_prime),
          canonical(sums.max_theta_prime),
          canonical(sums.max_signal_rate * dt_)};
}

std::vector<ExactSum> StatisticsReducer::tracer_sums() const {
  if (tracers_ == 0) return {};
  const auto count = static_cast<std::size_t>(tracers_);
  std::vector<ExactSum> local(count);
  for (std::size_t n = 0; n < host_tracer_records_.size(); ++n) local[n % count].add(host_tracer_records_.data()[n]);
  return sum_over_ranks(local.data(), tracers_, comm_);
}

WaterTotals StatisticsReducer::surface_totals() const {
  const std::size_t columns = host_surface_.size() / surface_water_fields;
  const double* const precipitation = host_surface_.data();
  const double* const rain_rate = host_surface_.data() + columns;
  const double* const clipped = host_surface_.data() + 2 * columns;
  SurfaceSums local;
  for (std::size_t c = 0; c < columns; ++c) {
    local.precipitation.add(precipitation[c], surface_scale_bits);
    local.clipped.add(clipped[c], surface_scale_bits);
    local.rain_rate.add(rain_rate[c], density_scale_bits);
    local.max_rain_rate = max_or_nan(local.max_rain_rate, rain_rate[c]);
  }
  local.columns = static_cast<std::int64_t>(columns);
  const SurfaceSums sums = sum_over_ranks(&local, 1, comm_).front();
  // The rain rate as the snapshots' rain_rate: the mass flux ρ_w · rate.
  return {0.0, sums.clipped.value(surface_scale_bits) * column_area_,
          sums.precipitation.value(surface_scale_bits) * column_area_,
          physics::rho_water * sums.rain_rate.value(density_scale_bits) / static_cast<double>(sums.columns),
          canonical(physics::rho_water * sums.max_rain_rate)};
}

}  // namespace simapp
