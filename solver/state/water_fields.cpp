#include "solver/state/water_fields.hpp"

#include <vector>

#include "kernels/backend/device_runtime.hpp"

namespace simapp {

template <int Dims>
WaterFields<Dims>::WaterFields(const Stream& stream, const FieldShape<Dims>& cells, bool water) {
  if (!water) return;
  scratch_shape_ = {cells.nx, cells.ny, cells.nz, 0, static_cast<int>(MicrophysicsScratch::count)};
  columns_ = static_cast<std::size_t>(cells.nx) * static_cast<std::size_t>(cells.ny);
  scratch_ = DeviceBuffer<double>(stream.backend, scratch_shape_.size());
  const std::vector<double> zeros(3 * columns_, 0.0);
  surface_ = DeviceBuffer<double>(stream.backend, zeros.size());
  device::copy_async(stream, surface_.data(), zeros.data(), zeros.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
}

template <int Dims>
SurfaceWater WaterFields<Dims>::surface() const {
  double* const fields = surface_.data();
  return {fields, fields + columns_, fields + 2 * columns_};
}

template class WaterFields<2>;
template class WaterFields<3>;

}  // namespace simapp
