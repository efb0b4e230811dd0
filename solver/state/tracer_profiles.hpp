#pragma once
/// The background profiles ρ̄_x(z) of a run's tracers, in its backend's memory (docs/model.md,
/// "Tracers"): the tracers of physics.tracers start alike (physics.tracer_init): ρ̄ itself for a
/// uniform mixing ratio, 0 for the bump; the water's (physics.microphysics) are those of the
/// background's sounding (ρ̄_v, ρ̄_c; ρ̄_r = 0), or 0. Where all the tracers start alike one profile
/// serves them all.
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "solver/grid/grid_spec.hpp"

namespace simapp {

/// The water of a background integrated from a sounding: ρ̄_v and ρ̄_c, kg m⁻³ (ρ̄_r = 0), as
/// cell averages of nz + 2·halo rows and at the nz + 1 interfaces.
struct WaterProfiles {
  std::vector<double> vapour_cell, cloud_cell;
  std::vector<double> vapour_face, cloud_face;
};

class TracerProfiles {
 public:
  /// The profiles of the tracers of `grid` (none: an empty view) on `nz` local rows over
  /// `background`, which must outlive this, whose water is `water` where it was integrated from a
  /// sounding (null: no water in the background).
  TracerProfiles(const Stream& stream, const GridSpec& grid, int nz, const HydrostaticView& background,
                 const WaterProfiles* water);

  TracerBackground view() const { return view_; }

 private:
  DeviceBuffer<double> profiles_;  ///< every profile's cell rows, then every profile's interfaces
  TracerBackground view_;
};

}  // namespace simapp
