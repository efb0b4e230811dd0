#pragma once
/// The microphysics of one column (microphysics.hpp, docs/model.md, "Moisture", steps 1–5), the
/// work the microphysics kernel and the persistent kernel's microphysics element run on each
/// column: microphysics_column. Include this only from kernel sources (compiled as CUDA in a
/// CUDA build).
#include <cmath>

#include "kernels/backend/host_device.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"

namespace simapp {

namespace detail {

template <int Dims>
SIMAPP_HOST_DEVICE inline double& scratch(const MicrophysicsArguments<Dims>& m, MicrophysicsScratch s, int i, int j,
                                          int k) {
  return m.scratch(static_cast<int>(s), k, j, i);
}

/// Level k of one column of a field (its levels a layer stride apart).
template <int Dims>
SIMAPP_HOST_DEVICE inline ColumnOf<double> column_of(const FieldView<double, Dims>& field, int v, int i, int j) {
  return {&field(v, 0, j, i), static_cast<std::ptrdiff_t>(field.shape.layer_stride())};
}

/// ρ_x = ρ̄_x + ρ_x′ of water tracer t in cell (i, j, k).
template <int Dims>
SIMAPP_HOST_DEVICE inline double water_density(const MicrophysicsArguments<Dims>& m, int t, int i, int j, int k) {
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
SIMAPP_HOST_DEVICE inline CellThermodynamics thermodynamics(const MicrophysicsArguments<Dims>& m, int i, int j, int k) {
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

}  // namespace detail

/// Steps 1–5 on column (i, j) over dt (StepParams::dt_physics of the step it follows).
template <int Dims>
SIMAPP_HOST_DEVICE inline void microphysics_column(const MicrophysicsArguments<Dims>& m, double dt, int i, int j) {
  using namespace detail;
  using V = ModelVariables<Dims>;
  using Scratch = MicrophysicsScratch;
  const int nz = m.state.shape.nz;
  const double dz = m.geometry.dz;
  HoleFill fills[water_tracers];
  double clipped = 0.0;
  for (int t = 0; t < water_tracers; ++t) {
    fills[t] = hole_fill_of(WaterColumn<Dims>{&m, t, i, j}, nz, dz);
    clipped += fills[t].clipped;
  }
  for (int k = 0; k < nz; ++k) {
    const CellThermodynamics c = thermodynamics(m, i, j, k);
    scratch(m, Scratch::rho_d, i, j, k) = c.rho_d;
    scratch(m, Scratch::exner, i, j, k) = c.exner;
    scratch(m, Scratch::temperature, i, j, k) = c.temperature;
    scratch(m, Scratch::theta, i, j, k) = c.temperature / c.exner;
    for (int t = 0; t < water_tracers; ++t)
      scratch(m, static_cast<Scratch>(static_cast<int>(Scratch::qv) + t), i, j, k) =
          fills[t](water_density(m, t, i, j, k)) / c.rho_d;
  }
  const KesslerColumn column{column_of(m.scratch, static_cast<int>(Scratch::theta), i, j),
                             column_of(m.scratch, static_cast<int>(Scratch::qv), i, j),
                             column_of(m.scratch, static_cast<int>(Scratch::qc), i, j),
                             column_of(m.scratch, static_cast<int>(Scratch::qr), i, j),
                             column_of(m.scratch, static_cast<int>(Scratch::rho_d), i, j),
                             column_of(m.scratch, static_cast<int>(Scratch::exner), i, j),
                             nz,
                             dz};
  const KesslerOutcome outcome = kessler_column(column, dt, m.rain);
  for (int k = 0; k < nz; ++k) {
    const double rho_d = scratch(m, Scratch::rho_d, i, j, k);
    const double exner = scratch(m, Scratch::exner, i, j, k);
    const double temperature = scratch(m, Scratch::temperature, i, j, k);
    const double vapour = water_density(m, 0, i, j, k);
    double increments[water_tracers];
    double delta_rho = 0.0;
    for (int t = 0; t < water_tracers; ++t) {
      const double before = water_density(m, t, i, j, k);
      const double filled = fills[t](before);
      const double q_after = scratch(m, static_cast<Scratch>(static_cast<int>(Scratch::qv) + t), i, j, k);
      increments[t] = rho_d * (q_after - filled / rho_d) + (filled - before);
      delta_rho += increments[t];
    }
    for (int t = 0; t < water_tracers; ++t) m.state(m.first_water + t, k, j, i) += increments[t];
    const double vapour_after = vapour + increments[0];
    const double temperature_after = temperature + (scratch(m, Scratch::theta, i, j, k) - temperature / exner) * exner;
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
  const int surface = j * m.state.shape.nx + i;
  m.surface.precipitation[surface] += physics::rho_water * outcome.rain_rate * dt;
  m.surface.rain_rate[surface] = outcome.rain_rate;
  m.surface.clipped[surface] += clipped + outcome.clipped;
}

}  // namespace simapp
