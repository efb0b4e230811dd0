#include "solver/state/tracer_profiles.hpp"

#include <algorithm>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

/// `count` values of the backend's memory at `values`, on the host.
std::vector<double> on_host(const Stream& stream, const double* values, std::size_t count) {
  std::vector<double> copy(count);
  device::copy_async(stream, copy.data(), values, count * sizeof(double), device::CopyDirection::device_to_host);
  device::synchronize(stream);
  return copy;
}

}  // namespace

TracerProfiles::TracerProfiles(const Stream& stream, const GridSpec& grid, int nz, const HydrostaticView& background,
                               const WaterProfiles* water_background) {
  const std::size_t tracers = state_tracers(grid).size();
  if (tracers == 0) return;
  const bool water = grid.microphysics != Microphysics::none;
  if (!water && grid.tracer_init == TracerInit::uniform) {
    view_ = {background.density_cell, background.density_face, 0, 0};
    return;
  }
  const std::size_t cells = static_cast<std::size_t>(nz) + 2 * numerics::halo_width, faces = nz + 1;
  // One profile for all the tracers where they start alike; else one each: the water's (the
  // sounding's vapour and cloud, no rain), then those of physics.tracers.
  const std::size_t profiles = water ? tracers : 1;
  std::vector<double> values(profiles * (cells + faces), 0.0);
  if (water && water_background) {
    std::ranges::copy(water_background->vapour_cell, values.begin());
    std::ranges::copy(water_background->cloud_cell, values.begin() + cells);
    std::ranges::copy(water_background->vapour_face, values.begin() + profiles * cells);
    std::ranges::copy(water_background->cloud_face, values.begin() + profiles * cells + faces);
  }
  if (grid.tracer_init == TracerInit::uniform) {
    const std::vector<double> density_cell = on_host(stream, background.density_cell, cells);
    const std::vector<double> density_face = on_host(stream, background.density_face, faces);
    for (std::size_t t = tracers - grid.tracers.size(); t < tracers; ++t) {
      std::copy(density_cell.begin(), density_cell.end(), values.begin() + t * cells);
      std::copy(density_face.begin(), density_face.end(), values.begin() + profiles * cells + t * faces);
    }
  }
  profiles_ = DeviceBuffer<double>(stream.backend, values.size());
  device::copy_async(stream, profiles_.data(), values.data(), values.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
  const int stride_cell = water ? static_cast<int>(cells) : 0, stride_face = water ? static_cast<int>(faces) : 0;
  view_ = {profiles_.data(), profiles_.data() + profiles * cells, stride_cell, stride_face};
}

}  // namespace simapp
