#pragma once
/// Domain totals of mass and total energy, and the statistics of the flow that a run records
/// over time (docs/model.md, "Diagnostics"), reduced from the distributed state.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_event.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/diagnostics/flow_statistics.hpp"

namespace simapp {

struct Diagnostics {
  double mass = 0.0;                ///< kg per metre of y (the 2-D model), kg (the 3-D model)
  double total_energy = 0.0;        ///< J per metre of y, J
  std::vector<double> tracer_mass;  ///< each tracer's Σ ρ_x dV, as mass (none without tracers)
};

/// Relative changes (now − start) / start, as printed in d_mass, d_te and d_mass_<tracer> (NaN for
/// a tracer without mass at the start).
struct DiagnosticsChange {
  double mass = 0.0;
  double total_energy = 0.0;
  std::vector<double> tracer_mass;
};

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now);

/// The statistics of the whole state at one time (kernels/diagnostics/flow_statistics.hpp): the
/// same bits on every rank, for any decomposition, backend, execution mode and granularity.
struct FlowStatistics {
  Diagnostics totals;                                   ///< mass and total energy
  double kinetic_energy = 0.0;                          ///< Σ ½ρ|u|² dV: J per metre of y (the 2-D model), J
  double max_abs_u = 0.0;                               ///< m s⁻¹
  double max_abs_v = 0.0;                               ///< m s⁻¹ (0 in the 2-D model)
  double max_abs_w = 0.0;                               ///< m s⁻¹
  double min_theta_prime = 0.0, max_theta_prime = 0.0;  ///< K
  /// max over cells and axes a of (|u_a| + c) dt / Δ_a: the Courant number the step reached,
  /// which time.cfl bounds while every signal speed stays below 450 m/s.
  double courant_number = 0.0;
};

/// Reduces the statistics of the distributed state: exact on the backend (two passes, a few
/// records copied to the host), added exactly on the host and over the ranks of `comm`, so every
/// backend schedule, thread count and decomposition gives the same bits. queue() and collect()
/// apart let the device go on with queued steps while the host waits for the records.
class StatisticsReducer {
 public:
  /// For `cells` interior cells on this rank, each of `cell_volume` (m², or m³ in 3-D), steps
  /// of `dt` (s, for the Courant number) and states of `tracers` tracers.
  StatisticsReducer(Backend backend, std::int64_t cells, double cell_volume, double dt, int tracers, MPI_Comm comm);

  /// Queues the reduction of the state of the model of `Dims` dimensions, whose tracers have the
  /// background `tracer_background`, on `stream`, and the copy of its records to the host; the
  /// state may change once the stream has run it.
  template <int Dims>
  void queue(const Stream& stream, FieldOf<const double, Dims> state, HydrostaticView background,
             TracerBackground tracer_background, const CellGeometry<Dims>& geometry) const;
  /// Waits for what queue() queued last and reduces it over the ranks (collective).
  FlowStatistics collect() const;

 private:
  /// Each tracer's mass of the records that queue() copied, over the ranks (collective).
  std::vector<double> tracer_masses() const;

  DeviceBuffer<StatisticsSums> partials_, records_;
  PinnedBuffer<StatisticsSums> host_records_;
  DeviceBuffer<ExactSum> tracer_partials_, tracer_records_;  ///< TracerMassSums' arrays
  PinnedBuffer<ExactSum> host_tracer_records_;
  int tracers_;
  OwnedEvent ready_;
  double cell_volume_, dt_;
  MPI_Comm comm_;
};

}  // namespace simapp
