#pragma once
/// The reference θ's vertical diffusion acts on the departure from with
/// physics.diffusion_reference: initial_state: θ₀ − θ̄ of every interior cell of the rank, made
/// once from the run's initial state (a restart's too: the reference is the run's t = 0), kept
/// in the backend's memory and read by the flux kernels through HydrostaticView.
#include <span>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/grid/grid.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {

class InitialThetaReference {
 public:
  /// Room for the reference where `spec` asks for one (a diffusivity and the initial state as
  /// the reference); none otherwise. A bad-input Error where the decomposition splits z (the
  /// reference is read along whole columns).
  InitialThetaReference(Backend backend, const RunSpec& spec, const Grid& grid, const Decomposition& decomposition);

  bool used() const { return theta_.size() > 0; }
  /// `background` reading this reference (unchanged without one).
  HydrostaticView applied_to(HydrostaticView background) const;
  /// θ₀ − θ̄ = (ρ̄θ̄ + (ρθ)′) / (ρ̄ + ρ′) − ρ̄θ̄ / ρ̄ of each cell of `initial_interior` (the rank's
  /// interior state, [var][k][j][i]) over the background `columns`, into the backend's memory.
  void set(const Stream& stream, std::span<const double> initial_interior, const HydrostaticColumns& columns) const;

 private:
  DeviceBuffer<double> theta_;
  int nx_ = 0, ny_ = 0;      ///< the rank's interior cells along x and y
  int dens_ = 0, rhot_ = 0;  ///< the variables' places in the state
};

}  // namespace simapp
