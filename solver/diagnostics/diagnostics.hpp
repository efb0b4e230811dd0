#pragma once
/// Domain totals of mass and total energy, and the statistics of the flow that a run records
/// over time (docs/model.md, "Diagnostics"), reduced from the distributed state.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_event.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/diagnostics/flow_statistics.hpp"
#include "kernels/microphysics/microphysics.hpp"

namespace simapp {

/// The water of a run with water (physics.microphysics; docs/model.md, "Moisture"): kg per metre
/// of y (the 2-D model), kg (the 3-D model).
struct WaterTotals {
  /// W = Σ(ρ_v + ρ_c + ρ_r) dV + Σ precipitation_amount dA: the water in the air and on the ground.
  double water = 0.0;
  double clipped = 0.0;         ///< Σ clipped dA: the water the hole filling and the clips added since t = 0
  double precipitation = 0.0;   ///< Σ precipitation_amount dA: the water on the ground
  double mean_rain_rate = 0.0;  ///< ρ_w · rain rate at the ground averaged over the surface, kg m⁻² s⁻¹
  double max_rain_rate = 0.0;   ///< its largest value on any column, kg m⁻² s⁻¹
};

/// W of the water tracers' masses (the first water_tracers of `tracer_mass`, each Σ ρ_x dV) and of
/// the water on the ground, Σ precipitation_amount dA: the same sum wherever W is formed (the
/// statistics, a restart's t = 0 values), so a restarted run reports what the uninterrupted one does.
double water_of(const std::vector<double>& tracer_mass, double precipitated);

struct Diagnostics {
  /// Σρ dV of the total density, kg per metre of y (the 2-D model), kg (the 3-D model); in a run
  /// with water the dry air's, Σρ_d dV, ρ_d = ρ − ρ_v − ρ_c − ρ_r.
  double mass = 0.0;
  double total_energy = 0.0;           ///< J per metre of y, J
  std::vector<double> tracer_mass;     ///< each tracer's Σ ρ_x dV, as mass (none without tracers)
  std::optional<WaterTotals> water{};  ///< a run with water's
};

/// What a run with water reports of it since t = 0.
struct WaterChange {
  double water = 0.0;    ///< d_water = (W − W₀)/W₀
  double clipped = 0.0;  ///< the water clipped since t = 0, kg per metre of y (2-D), kg (3-D)
};

/// Relative changes (now − start) / start, as printed in d_mass, d_te and d_mass_<tracer> (NaN for
/// a tracer without mass at the start), and with water d_water and the clipped water.
struct DiagnosticsChange {
  double mass = 0.0;
  double total_energy = 0.0;
  std::vector<double> tracer_mass;
  std::optional<WaterChange> water{};
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
  /// of `dt` (s, for the Courant number) and states of `tracers` tracers, of which the first
  /// `water` (0, or water_tracers in a run with water) are the water's; with water also the
  /// rank's `columns` columns of the surface, each of `column_area` (m, or m² in 3-D).
  StatisticsReducer(Backend backend, std::int64_t cells, double cell_volume, double dt, int tracers, MPI_Comm comm,
                    int water = 0, std::int64_t columns = 0, double column_area = 0.0);

  /// Queues the reduction of the state of the model of `Dims` dimensions, whose tracers have the
  /// background `tracer_background`, on `stream`, and the copy of its records (with water, and of
  /// the surface fields `surface`) to the host; the state may change once the stream has run it.
  template <class Real, int Dims>
  void queue(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
             TracerBackground tracer_background, const CellGeometry<Dims>& geometry, SurfaceWater surface = {}) const;
  /// Waits for what queue() queued last and reduces it over the ranks (collective).
  FlowStatistics collect() const;

 private:
  /// Each tracer's Σ ρ_x of the records that queue() copied, over the ranks (collective).
  std::vector<ExactSum> tracer_sums() const;
  /// The water's totals over the surface fields that queue() copied, over the ranks (collective):
  /// all of WaterTotals but W, left 0.
  WaterTotals surface_totals() const;

  DeviceBuffer<StatisticsSums> partials_, records_;
  PinnedBuffer<StatisticsSums> host_records_;
  DeviceBuffer<ExactSum> tracer_partials_, tracer_records_;  ///< TracerMassSums' arrays
  PinnedBuffer<ExactSum> host_tracer_records_;
  PinnedBuffer<double> host_surface_;  ///< with water: the surface fields, [field][j][i]
  int tracers_, water_;
  OwnedEvent ready_;
  double cell_volume_, dt_, column_area_;
  MPI_Comm comm_;
};

}  // namespace simapp
