#pragma once
/// The 3-D model's step values (grid.ny > 1): the 2-D model's StepParams for x and z, worked out
/// the same way, and those of the y pass beside them, so the 2-D kernels' parameters keep their
/// layout.
#include "kernels/backend/host_device.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

struct StepParams3d {
  StepParams xz;                     ///< dt, 1/dx, 1/dz, ν/dx, ν/dz and each stage's dt and K of x and z faces
  double inv_dy = 0.0;               ///< 1 / dy, m⁻¹
  double viscosity_y = 0.0;          ///< ν / dy, m s⁻¹ (0: no diffusion)
  double k_hyper_y[rk_stages] = {};  ///< K of y faces in each stage
};

/// The values of a step of `dt` on cells of dx × dy × dz.
SIMAPP_HOST_DEVICE inline StepParams3d step_params_3d(double dt, double dx, double dy, double dz,
                                                      const Dissipation& dissipation) {
  StepParams3d params;
  params.xz = step_params(dt, dx, dz, dissipation);
  params.inv_dy = 1.0 / dy;
  params.viscosity_y = dissipation.viscosity * params.inv_dy;
  for (int s = 0; s < rk_stages; ++s)
    params.k_hyper_y[s] = hyperviscosity_coefficient(dissipation.hyperviscosity, dy, params.xz.stage[s].dt);
  return params;
}

}  // namespace simapp
