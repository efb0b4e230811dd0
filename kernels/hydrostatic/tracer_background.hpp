#pragma once
/// The background profiles of the tracers (docs/model.md, "Tracers"): a tracer is stored like ρ′,
/// as a perturbation ρ_x′ from a profile ρ̄_x(z) of the height alone.
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

/// The background profile of each tracer, ρ̄_x(z) (cell averages for rows k ∈ [−halo, nz + halo),
/// interface values for k ∈ [0, nz]), tracer t's at t · stride (a stride of 0: one profile for all).
struct TracerBackground {
  const double* cell = nullptr;
  const double* face = nullptr;
  int cell_stride = 0;
  int face_stride = 0;

  SIMAPP_HOST_DEVICE double cell_value(int t, int k) const { return cell[t * cell_stride + k + numerics::halo_width]; }
  SIMAPP_HOST_DEVICE double face_value(int t, int k) const { return face[t * face_stride + k]; }
};

}  // namespace simapp
