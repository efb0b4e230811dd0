#include "solver/diagnostics/diagnostics.hpp"

#include <cmath>
#include <vector>

#include "kernels/initial_conditions/tracer_initial_state.hpp"

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

}  // namespace

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now) {
  DiagnosticsChange change{
      (now.mass - start.mass) / start.mass, (now.total_energy - start.total_energy) / start.total_energy, {}};
  for (std::size_t t = 0; t < now.tracer_mass.size() && t < start.tracer_mass.size(); ++t)
    change.tracer_mass.push_back(start.tracer_mass[t] == 0.0
                                     ? std::nan("")  // no mass to change relative to (a bump the case lacks)
                                     : (now.tracer_mass[t] - start.tracer_mass[t]) / start.tracer_mass[t]);
  return change;
}

StatisticsReducer::StatisticsReducer(Backend backend, std::int64_t cells, double cell_volume, double dt, int tracers,
                                     MPI_Comm comm)
    : partials_(backend, statistics_partial_count(cells)),
      records_(backend, statistics_record_count(cells)),
      host_records_(backend, statistics_record_count(cells)),
      tracer_partials_(backend, statistics_partial_count(cells) * static_cast<std::size_t>(tracers)),
      tracer_records_(backend, statistics_record_count(cells) * static_cast<std::size_t>(tracers)),
      host_tracer_records_(backend, statistics_record_count(cells) * static_cast<std::size_t>(tracers)),
      tracers_(tracers),
      ready_(backend),
      cell_volume_(cell_volume),
      dt_(dt),
      comm_(comm) {}

template <int Dims>
void StatisticsReducer::queue(const Stream& stream, FieldOf<const double, Dims> state, HydrostaticView background,
                              TracerBackground tracer_background, const CellGeometry<Dims>& geometry) const {
  const TracerMassSums tracers{tracers_of(state.shape), tracer_background, tracer_partials_.data(),
                               tracer_records_.data()};
  reduce_statistics(stream, state, background, geometry, partials_.data(), records_.data(), tracers);
  device::copy_async(stream, host_records_.data(), records_.data(), records_.size() * sizeof(StatisticsSums),
                     device::CopyDirection::device_to_host);
  if (tracers_ > 0)
    device::copy_async(stream, host_tracer_records_.data(), tracer_records_.data(),
                       tracer_records_.size() * sizeof(ExactSum), device::CopyDirection::device_to_host);
  ready_.record(stream);
}

template void StatisticsReducer::queue(const Stream&, FieldOf<const double, 2>, HydrostaticView, TracerBackground,
                                       const CellGeometry<2>&) const;
template void StatisticsReducer::queue(const Stream&, FieldOf<const double, 3>, HydrostaticView, TracerBackground,
                                       const CellGeometry<3>&) const;

FlowStatistics StatisticsReducer::collect() const {
  ready_.wait();
  StatisticsSums local;
  for (std::size_t r = 0; r < host_records_.size(); ++r) local.add(host_records_.data()[r]);
  const StatisticsSums sums = sum_over_ranks(&local, 1, comm_).front();
  return {{sums.mass.value(density_scale_bits) * cell_volume_, sums.energy.value(energy_scale_bits) * cell_volume_,
           tracer_masses()},
          sums.kinetic.value(energy_scale_bits) * cell_volume_,
          canonical(sums.max_abs_u),
          canonical(sums.max_abs_v),
          canonical(sums.max_abs_w),
          canonical(sums.min_theta_prime),
          canonical(sums.max_theta_prime),
          canonical(sums.max_signal_rate * dt_)};
}

std::vector<double> StatisticsReducer::tracer_masses() const {
  if (tracers_ == 0) return {};
  const auto count = static_cast<std::size_t>(tracers_);
  std::vector<ExactSum> local(count);
  for (std::size_t n = 0; n < host_tracer_records_.size(); ++n) local[n % count].add(host_tracer_records_.data()[n]);
  std::vector<double> masses;
  for (const ExactSum& sum : sum_over_ranks(local.data(), tracers_, comm_))
    masses.push_back(sum.value(density_scale_bits) * cell_volume_);
  return masses;
}

}  // namespace simapp
