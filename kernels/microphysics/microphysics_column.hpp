#pragma once
/// Steps 1–5 of the microphysics element (microphysics.hpp) on one column by one thread, on the
/// host and on CUDA alike: the hole filling's sums over the column (the three tracers' in one
/// pass), then kessler_column (kernels/physics/kessler.hpp) on the column as StateColumn gives
/// it, from the state on the first sweep, the increments to the state on the last, and between
/// the rain's sub-steps through the scratch field.
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"

namespace simapp {

namespace detail {

/// ρ_x = ρ̄_x + ρ_x′ of water tracer t in cell (i, j, k).
template <int Dims, class Real>
SIMAPP_HOST_DEVICE double water_density(const MicrophysicsArguments<Dims, Real>& m, int t, int i, int j, int k) {
  return m.water_background.cell_value(t, k) + m.state(m.first_water + t, k, j, i);
}

/// Step 1 of a cell, from the state: ρ, ρθ, ρ_d, T and Π.
struct CellThermodynamics {
  double rho, rho_theta, rho_d, temperature, exner;
};

template <int Dims, class Real>
SIMAPP_HOST_DEVICE CellThermodynamics thermodynamics(const MicrophysicsArguments<Dims, Real>& m, int i, int j, int k) {
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

/// Step 4 on level k: the increments of the state from the level's values after the routine;
/// the state of level k, whose step 1 is `c`, is still that before it.
template <int Dims, class Real>
SIMAPP_HOST_DEVICE void add_increments(const MicrophysicsArguments<Dims, Real>& m,
                                       const HoleFill (&fills)[water_tracers], int i, int j, int k,
                                       const CellThermodynamics& c, const KesslerLevel& after) {
  using V = ModelVariables<Dims>;
  const double q_after[water_tracers] = {after.qv, after.qc, after.qr};
  const double vapour = water_density(m, 0, i, j, k);
  double increments[water_tracers];
  double delta_rho = 0.0;
  for (int t = 0; t < water_tracers; ++t) {
    const double before = water_density(m, t, i, j, k);
    const double filled = fills[t](before);
    increments[t] = c.rho_d * (q_after[t] - filled / c.rho_d) + (filled - before);
    delta_rho += increments[t];
  }
  // In double, rounded once to the state's type Real.
  const auto add = [&](int v, double increment) { m.state(v, k, j, i) = Real(m.state(v, k, j, i) + increment); };
  const auto scale = [&](int v, double factor) { m.state(v, k, j, i) = Real(m.state(v, k, j, i) * factor); };
  for (int t = 0; t < water_tracers; ++t) add(m.first_water + t, increments[t]);
  const double vapour_after = vapour + increments[0];
  const double temperature_after = c.temperature + (after.theta - c.temperature / c.exner) * c.exner;
  const double p_before = c.rho_d * physics::rd * c.temperature + vapour * physics::rv * c.temperature;
  const double p_after = c.rho_d * physics::rd * temperature_after + vapour_after * physics::rv * temperature_after;
  add(V::dens, delta_rho);
  add(V::rhot, c.rho_theta * (p_after / p_before - 1.0));
  const double factor = (c.rho + delta_rho) / c.rho;
  scale(V::umom, factor);
  if constexpr (Dims == 3) scale(V::vmom, factor);
  scale(V::wmom, factor);
}

/// A level of StateColumn: the routine's values and step 1 of the state's cell, which the store
/// of the last sweep needs again.
struct StateLevel : KesslerLevel {
  CellThermodynamics before;
};

/// Column (i, j) as kessler_column's levels: on the first sweep θ_d and q_x = filled ρ_x/ρ_d from
/// the state (steps 1–2), on the last the increments to the state (step 4), between sub-steps
/// θ_d and q_x through the scratch field; ρ_d and Π always from the state, which the routine
/// leaves as it was until a level's last store.
template <int Dims, class Real>
struct StateColumn {
  const MicrophysicsArguments<Dims, Real>& m;
  const HoleFill (&fills)[water_tracers];
  int i, j;

  SIMAPP_HOST_DEVICE StateLevel load(int k, bool first) const {
    using Scratch = MicrophysicsScratch;
    const CellThermodynamics c = thermodynamics(m, i, j, k);
    if (!first) {
      return {{m.scratch(static_cast<int>(Scratch::theta), k, j, i), m.scratch(static_cast<int>(Scratch::qv), k, j, i),
               m.scratch(static_cast<int>(Scratch::qc), k, j, i), m.scratch(static_cast<int>(Scratch::qr), k, j, i),
               c.rho_d, c.exner},
              c};
    }
    return {{c.temperature / c.exner, fills[0](water_density(m, 0, i, j, k)) / c.rho_d,
             fills[1](water_density(m, 1, i, j, k)) / c.rho_d, fills[2](water_density(m, 2, i, j, k)) / c.rho_d,
             c.rho_d, c.exner},
            c};
  }

  SIMAPP_HOST_DEVICE void store(int k, bool last, const StateLevel& level) const {
    using Scratch = MicrophysicsScratch;
    if (last) {
      add_increments(m, fills, i, j, k, level.before, level);
      return;
    }
    m.scratch(static_cast<int>(Scratch::theta), k, j, i) = level.theta;
    m.scratch(static_cast<int>(Scratch::qv), k, j, i) = level.qv;
    m.scratch(static_cast<int>(Scratch::qc), k, j, i) = level.qc;
    m.scratch(static_cast<int>(Scratch::qr), k, j, i) = level.qr;
  }
};

}  // namespace detail

/// Step 2's hole filling of column (i, j): the three tracers' sums in one pass over the levels,
/// from the lowest up; `clipped` gets the water the emptied tracers add, in the tracers' order.
template <int Dims, class Real>
SIMAPP_HOST_DEVICE void column_fills(const MicrophysicsArguments<Dims, Real>& m, int i, int j,
                                     HoleFill (&fills)[water_tracers], double& clipped) {
  HoleFillSums sums[water_tracers];
  for (int k = 0; k < m.state.shape.nz; ++k)
    for (int t = 0; t < water_tracers; ++t) sums[t].add(detail::water_density(m, t, i, j, k));
  clipped = 0.0;
  for (int t = 0; t < water_tracers; ++t) {
    fills[t] = sums[t].fill(m.geometry.dz);
    clipped += fills[t].clipped;
  }
}

/// Step 5 of column (i, j) over dt: the surface's fields from the routine's outcome and the hole
/// filling's clipped water.
template <int Dims, class Real>
SIMAPP_HOST_DEVICE void add_to_surface(const MicrophysicsArguments<Dims, Real>& m, double dt, int i, int j,
                                       const KesslerOutcome& outcome, double hole_fill_clipped) {
  const int surface = j * m.state.shape.nx + i;
  m.surface.precipitation[surface] += physics::rho_water * outcome.rain_rate * dt;
  m.surface.rain_rate[surface] = outcome.rain_rate;
  m.surface.clipped[surface] += hole_fill_clipped + outcome.clipped;
}

/// Steps 1–5 on column (i, j) over dt (s).
template <int Dims, class Real>
SIMAPP_HOST_DEVICE void microphysics_column(const MicrophysicsArguments<Dims, Real>& m, double dt, int i, int j) {
  HoleFill fills[water_tracers];
  double clipped;
  column_fills(m, i, j, fills, clipped);
  const KesslerOutcome outcome =
      kessler_column(detail::StateColumn<Dims, Real>{m, fills, i, j}, m.state.shape.nz, m.geometry.dz, dt, m.rain);
  add_to_surface(m, dt, i, j, outcome, clipped);
}

}  // namespace simapp
