#pragma once
/// Values that change from step to step, read by kernels through a fixed device pointer so
/// that a captured graph never needs re-capturing when they change. The per-stage values are
/// worked out once a step on the host with the same IEEE operations a kernel would use, so
/// kernels read them instead of dividing for every face and cell, with identical results.
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp {

/// physics.diffusion_reference: what θ's vertical diffusion acts on the departure from: the
/// background θ̄(z), or the initial state's θ₀(x, y, z) (as HOMME's DCMIP2016 supercell: the
/// initial bubble does not diffuse along z, only what the flow makes of it).
enum class DiffusionReference { background, initial_state };

/// The run's dissipation (physics.viscosity, physics.hyperviscosity, physics.diffusivity,
/// physics.diffusion_reference).
struct Dissipation {
  double viscosity = 0.0;                                 ///< ν of ν∇² of the velocities, m² s⁻¹
  double hyperviscosity = numerics::hyperviscosity_beta;  ///< β of the hyperviscosity, dimensionless
  double diffusivity = viscosity;  ///< κ of κ∇² of θ and the tracers, m² s⁻¹ (ν's unless given)
  DiffusionReference reference = DiffusionReference::background;

  /// Whether θ diffuses along z as its departure from the initial state (a diffusivity, and the
  /// initial state as its reference).
  SIMAPP_HOST_DEVICE bool theta_diffuses_from_initial_state() const {
    return reference == DiffusionReference::initial_state && diffusivity > 0.0;
  }
  /// The larger of ν and κ: the coefficient that bounds an explicit step (solver/time/time_stepping.hpp).
  SIMAPP_HOST_DEVICE double largest_coefficient() const { return diffusivity > viscosity ? diffusivity : viscosity; }
};

/// Hyperviscosity K = −β Δ / (16 dt_stage).
SIMAPP_HOST_DEVICE inline double hyperviscosity_coefficient(double beta, double spacing, double dt_stage) {
  return -beta * spacing / (16.0 * dt_stage);
}

/// One RK3 stage's values.
struct StageParams {
  double dt = 0.0;       ///< dt / divisor, s
  double k_hyper_x = 0;  ///< K of x faces
  double k_hyper_z = 0;  ///< K of z faces
};

template <int Dims>
struct StepParams;

/// The x–z model's step values.
template <>
struct StepParams<2> {
  double dt = 0.0;             ///< this step's time step, s (shorter on a final partial step)
  double dt_physics = 0.0;     ///< the time the microphysics after this step integrates over, s; 0: none follows it
  double inv_dx = 0.0;         ///< 1 / dx, m⁻¹
  double inv_dz = 0.0;         ///< 1 / dz, m⁻¹
  double viscosity_x = 0.0;    ///< ν / dx, m s⁻¹ (0: no diffusion of the velocities)
  double viscosity_z = 0.0;    ///< ν / dz, m s⁻¹
  double diffusivity_x = 0.0;  ///< κ / dx, m s⁻¹ (0: no diffusion of θ and the tracers)
  double diffusivity_z = 0.0;  ///< κ / dz, m s⁻¹
  StageParams stage[rk_stages];
};

/// The values of a step of `dt` on cells of dx × dz; stage s's dt is dt / divisor of the
/// step scheme's stage s.
SIMAPP_HOST_DEVICE inline StepParams<2> step_params(double dt, double dx, double dz, const Dissipation& dissipation) {
  constexpr StepScheme scheme = step_scheme();
  StepParams<2> params;
  params.dt = dt;
  params.inv_dx = 1.0 / dx;
  params.inv_dz = 1.0 / dz;
  params.viscosity_x = dissipation.viscosity * params.inv_dx;
  params.viscosity_z = dissipation.viscosity * params.inv_dz;
  params.diffusivity_x = dissipation.diffusivity * params.inv_dx;
  params.diffusivity_z = dissipation.diffusivity * params.inv_dz;
  for (int s = 0; s < rk_stages; ++s) {
    const double dt_stage = dt / scheme.stages[s].dt_divisor;
    const double beta = dissipation.hyperviscosity;
    params.stage[s] = {dt_stage, hyperviscosity_coefficient(beta, dx, dt_stage),
                       hyperviscosity_coefficient(beta, dz, dt_stage)};
  }
  return params;
}

/// The 3-D model's step values: the x–z model's, worked out the same way, and those of the y pass
/// after them, so that the x and z values keep their layout.
template <>
struct StepParams<3> : StepParams<2> {
  double inv_dy = 0.0;               ///< 1 / dy, m⁻¹
  double viscosity_y = 0.0;          ///< ν / dy, m s⁻¹ (0: no diffusion of the velocities)
  double diffusivity_y = 0.0;        ///< κ / dy, m s⁻¹ (0: no diffusion of θ and the tracers)
  double k_hyper_y[rk_stages] = {};  ///< K of y faces in each stage
};

/// The values of a step of `dt` on cells of dx × dy × dz.
SIMAPP_HOST_DEVICE inline StepParams<3> step_params(double dt, double dx, double dy, double dz,
                                                    const Dissipation& dissipation) {
  StepParams<3> params;
  static_cast<StepParams<2>&>(params) = step_params(dt, dx, dz, dissipation);
  params.inv_dy = 1.0 / dy;
  params.viscosity_y = dissipation.viscosity * params.inv_dy;
  params.diffusivity_y = dissipation.diffusivity * params.inv_dy;
  for (int s = 0; s < rk_stages; ++s)
    params.k_hyper_y[s] = hyperviscosity_coefficient(dissipation.hyperviscosity, dy, params.stage[s].dt);
  return params;
}

}  // namespace simapp
