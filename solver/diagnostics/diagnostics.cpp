#include "solver/diagnostics/diagnostics.hpp"

#include <cmath>
#include <vector>

namespace simapp {

namespace {

/// One value for every kind of NaN, and +0 for −0, so that the statistics' bits do not depend
/// on which cell's value a maximum or minimum kept.
double canonical(double value) { return std::isnan(value) ? std::nan("") : value + 0.0; }

}  // namespace

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now) {
  return {(now.mass - start.mass) / start.mass, (now.total_energy - start.total_energy) / start.total_energy};
}

StatisticsReducer::StatisticsReducer(Backend backend, std::int64_t cells, double cell_volume, double dt, MPI_Comm comm)
    : partials_(backend, statistics_partial_count(cells)),
      records_(backend, statistics_record_count(cells)),
      host_records_(backend, statistics_record_count(cells)),
      ready_(backend),
      cell_volume_(cell_volume),
      dt_(dt),
      comm_(comm) {}

template <int Dims>
void StatisticsReducer::queue(const Stream& stream, FieldOf<const double, Dims> state, HydrostaticView background,
                              const CellGeometry<Dims>& geometry) const {
  reduce_statistics(stream, state, background, geometry, partials_.data(), records_.data());
  device::copy_async(stream, host_records_.data(), records_.data(), records_.size() * sizeof(StatisticsSums),
                     device::CopyDirection::device_to_host);
  ready_.record(stream);
}

template void StatisticsReducer::queue(const Stream&, FieldOf<const double, 2>, HydrostaticView,
                                       const CellGeometry<2>&) const;
template void StatisticsReducer::queue(const Stream&, FieldOf<const double, 3>, HydrostaticView,
                                       const CellGeometry<3>&) const;

FlowStatistics StatisticsReducer::collect() const {
  ready_.wait();
  StatisticsSums local;
  for (std::size_t r = 0; r < host_records_.size(); ++r) local.add(host_records_.data()[r]);

  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  std::vector<StatisticsSums> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(&local, static_cast<int>(sizeof local), MPI_BYTE, all.data(), static_cast<int>(sizeof local), MPI_BYTE,
                comm_);
  StatisticsSums sums;
  for (const StatisticsSums& rank : all) sums.add(rank);
  return {{sums.mass.value(density_scale_bits) * cell_volume_, sums.energy.value(energy_scale_bits) * cell_volume_},
          sums.kinetic.value(energy_scale_bits) * cell_volume_,
          canonical(sums.max_abs_u),
          canonical(sums.max_abs_v),
          canonical(sums.max_abs_w),
          canonical(sums.min_theta_prime),
          canonical(sums.max_theta_prime),
          canonical(sums.max_signal_rate * dt_)};
}

}  // namespace simapp
