#include "solver/state/tracer_profiles.hpp"

#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

TracerProfiles::TracerProfiles(const Stream& stream, const GridSpec& grid, int nz, const HydrostaticView& background) {
  if (grid.tracers.empty()) return;
  if (grid.tracer_init == TracerInit::uniform) {
    view_ = {background.density_cell, background.density_face, 0, 0};
    return;
  }
  const std::size_t cells = static_cast<std::size_t>(nz) + 2 * numerics::halo_width, faces = nz + 1;
  const std::vector<double> zeros(cells + faces, 0.0);
  zeros_ = DeviceBuffer<double>(stream.backend, zeros.size());
  device::copy_async(stream, zeros_.data(), zeros.data(), zeros.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
  view_ = {zeros_.data(), zeros_.data() + cells, 0, 0};
}

}  // namespace simapp
