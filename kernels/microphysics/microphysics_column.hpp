#pragma once
/// Steps 1–5 of the microphysics element (microphysics.hpp) on one column, by a ColumnTeam
/// (kernels/backend/column_team.hpp): one host thread a column (apply_microphysics on the host),
/// or a CUDA block a column (microphysics_block.cuh), the same code. The column's working values
/// (MicrophysicsScratch, a value each a level) lie in a MicrophysicsStorage: the scratch field, or
/// a block's shared memory. Every step is per level (level k always on the same thread, so no
/// barrier guards a level's own values) except the hole filling's sums, which go through the
/// mixing ratios' columns before those hold anything, and what kessler_column shares between
/// levels; the results are the same bits for every team and either storage.
#include <cmath>
#include <cstddef>

#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"

namespace simapp {

/// Where a column's MicrophysicsScratch values lie: value s of level k at
/// first[s · value_stride + k · level_stride].
struct MicrophysicsStorage {
  double* first = nullptr;
  std::ptrdiff_t level_stride = 1;
  std::ptrdiff_t value_stride = 0;

  SIMAPP_HOST_DEVICE ColumnOf<double> operator[](MicrophysicsScratch s) const {
    return {first + static_cast<int>(s) * value_stride, level_stride};
  }
};

/// Doubles of a column's values in shared memory: MicrophysicsScratch::count a level.
SIMAPP_HOST_DEVICE constexpr std::size_t microphysics_shared_doubles(int nz) {
  return static_cast<std::size_t>(MicrophysicsScratch::count) * static_cast<std::size_t>(nz);
}

/// Column (i, j)'s values in the scratch field.
template <int Dims>
SIMAPP_HOST_DEVICE MicrophysicsStorage scratch_storage(const MicrophysicsArguments<Dims>& m, int i, int j) {
  return {&m.scratch(0, 0, j, i), static_cast<std::ptrdiff_t>(m.scratch.shape.layer_stride()),
          static_cast<std::ptrdiff_t>(m.scratch.shape.var_stride())};
}

/// A column's values in microphysics_shared_doubles(nz) doubles from `shared`, value by value.
SIMAPP_HOST_DEVICE inline MicrophysicsStorage shared_storage(double* shared, int nz) { return {shared, 1, nz}; }

namespace detail {

/// ρ_x = ρ̄_x + ρ_x′ of water tracer t in cell (i, j, k).
template <int Dims>
SIMAPP_HOST_DEVICE double water_density(const MicrophysicsArguments<Dims>& m, int t, int i, int j, int k) {
  return m.water_background.cell_value(t, k) + m.state(m.first_water + t, k, j, i);
}

/// Water tracer t of a column as its total density ρ_x at each level.
template <int Dims>
struct WaterColumn {
  const MicrophysicsArguments<Dims>* m;
  int t, i, j;

  SIMAPP_HOST_DEVICE double operator[](int k) const { return water_density(*m, t, i, j, k); }
};

/// Step 1 of a cell, from the state: ρ, ρθ, ρ_d, T and Π.
struct CellThermodynamics {
  double rho, rho_theta, rho_d, temperature, exner;
};

template <int Dims>
SIMAPP_HOST_DEVICE CellThermodynamics thermodynamics(const MicrophysicsArguments<Dims>& m, int i, int j, int k) {
  using V = ModelVariables<Dims>;
  const double rho = m.background.cell_density(k) + m.state(V::dens, k, j, i);
  const double rho_theta = m.background.cell_rho_theta(k) + m.state(V::rhot, k, j, i);
  const double vapour = water_density(m, 0, i, j, k);
  const double rho_d = rho - vapour - water_density(m, 1, i, j, k) - water_density(m, 2, i, j, k);
  const double p = physics::pressure(rho_theta);
  const double temperature = p / (rho_d * physics::rd + vapour * physics::rv);
  const double exner = pow(p / physics::p0, physics::rd / physics::cp);
  return {rho, rho_theta, rho_d, temperature, exner};
}

/// Water tracer t's mixing ratio column.
SIMAPP_HOST_DEVICE constexpr MicrophysicsScratch mixing_ratio(int t) {
  return static_cast<MicrophysicsScratch>(static_cast<int>(MicrophysicsScratch::qv) + t);
}

/// Step 4 on level k: the increments of the state from the column's values after the routine.
template <int Dims>
SIMAPP_HOST_DEVICE void add_increments(const MicrophysicsArguments<Dims>& m, const MicrophysicsStorage& column,
                                       const HoleFill (&fills)[water_tracers], int i, int j, int k) {
  using V = ModelVariables<Dims>;
  using Scratch = MicrophysicsScratch;
  const double rho_d = column[Scratch::rho_d][k];
  const double exner = column[Scratch::exner][k];
  const double temperature = column[Scratch::temperature][k];
  const double vapour = water_density(m, 0, i, j, k);
  double increments[water_tracers];
  double delta_rho = 0.0;
  for (int t = 0; t < water_tracers; ++t) {
    const double before = water_density(m, t, i, j, k);
    const double filled = fills[t](before);
    const double q_after = column[mixing_ratio(t)][k];
    increments[t] = rho_d * (q_after - filled / rho_d) + (filled - before);
    delta_rho += increments[t];
  }
  for (int t = 0; t < water_tracers; ++t) m.state(m.first_water + t, k, j, i) += increments[t];
  const double vapour_after = vapour + increments[0];
  const double temperature_after = temperature + (column[Scratch::theta][k] - temperature / exner) * exner;
  const double rho = m.background.cell_density(k) + m.state(V::dens, k, j, i);
  const double rho_theta = m.background.cell_rho_theta(k) + m.state(V::rhot, k, j, i);
  const double p_before = rho_d * physics::rd * temperature + vapour * physics::rv * temperature;
  const double p_after = rho_d * physics::rd * temperature_after + vapour_after * physics::rv * temperature_after;
  m.state(V::dens, k, j, i) += delta_rho;
  m.state(V::rhot, k, j, i) += rho_theta * (p_after / p_before - 1.0);
  const double factor = (rho + delta_rho) / rho;
  m.state(V::umom, k, j, i) *= factor;
  if constexpr (Dims == 3) m.state(V::vmom, k, j, i) *= factor;
  m.state(V::wmom, k, j, i) *= factor;
}

}  // namespace detail

/// Steps 1–5 on column (i, j) over dt (s) by `team`, its values in `column`; every thread of the
/// team returns after a barrier, the storage free again.
template <int Dims, class Team>
SIMAPP_HOST_DEVICE void microphysics_column(const Team& team, const MicrophysicsArguments<Dims>& m, double dt, int i,
                                            int j, const MicrophysicsStorage& column) {
  using Scratch = MicrophysicsScratch;
  const int nz = m.state.shape.nz;
  const double dz = m.geometry.dz;
  const HoleFillScratch sums{column[Scratch::qv], column[Scratch::qc], column[Scratch::qr]};
  HoleFill fills[water_tracers];
  double clipped = 0.0;
  for (int t = 0; t < water_tracers; ++t) {
    fills[t] = hole_fill_of(team, detail::WaterColumn<Dims>{&m, t, i, j}, sums, nz, dz);
    clipped += fills[t].clipped;
  }
  team.for_levels(nz, [&](int k) {
    const detail::CellThermodynamics c = detail::thermodynamics(m, i, j, k);
    column[Scratch::rho_d][k] = c.rho_d;
    column[Scratch::exner][k] = c.exner;
    column[Scratch::temperature][k] = c.temperature;
    column[Scratch::theta][k] = c.temperature / c.exner;
    for (int t = 0; t < water_tracers; ++t)
      column[detail::mixing_ratio(t)][k] = fills[t](detail::water_density(m, t, i, j, k)) / c.rho_d;
  });
  team.sync();  // the routine reads ρ_d of level 0 on every thread
  const KesslerColumn kessler{column[Scratch::theta],
                              column[Scratch::qv],
                              column[Scratch::qc],
                              column[Scratch::qr],
                              column[Scratch::rho_d],
                              column[Scratch::exner],
                              column[Scratch::flux],
                              column[Scratch::clipped],
                              nz,
                              dz};
  const KesslerOutcome outcome = kessler_column(team, kessler, dt, m.rain);
  team.for_levels(nz, [&](int k) { detail::add_increments(m, column, fills, i, j, k); });
  if (team.first == 0) {
    const int surface = j * m.state.shape.nx + i;
    m.surface.precipitation[surface] += physics::rho_water * outcome.rain_rate * dt;
    m.surface.rain_rate[surface] = outcome.rain_rate;
    m.surface.clipped[surface] += clipped + outcome.clipped;
  }
  team.sync();
}

}  // namespace simapp
