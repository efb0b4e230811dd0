#pragma once
/// The background profiles ρ̄_x(z) of a run's tracers, in its backend's memory (docs/model.md,
/// "Tracers"): the tracers of physics.tracers start alike (physics.tracer_init): ρ̄ itself for a
/// uniform mixing ratio, 0 for the bump; the water's (physics.microphysics) are 0. Where all
/// the tracers start alike one profile serves them all.
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "solver/grid/grid_spec.hpp"

namespace simapp {

class TracerProfiles {
 public:
  /// The profiles of the tracers of `grid` (none: an empty view) on `nz` local rows over
  /// `background`, which must outlive this.
  TracerProfiles(const Stream& stream, const GridSpec& grid, int nz, const HydrostaticView& background);

  TracerBackground view() const { return view_; }

 private:
  DeviceBuffer<double> profiles_;  ///< every profile's cell rows, then every profile's interfaces
  TracerBackground view_;
};

}  // namespace simapp
