#include "solver/state/water_fields.hpp"

#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "kernels/backend/device_runtime.hpp"

namespace simapp {

template <int Dims>
WaterFields<Dims>::WaterFields(const Stream& stream, const FieldShape<Dims>& cells, bool water) {
  if (!water) return;
  scratch_shape_ = scratch_shape_of(cells);
  columns_ = columns_of(cells);
  scratch_ = DeviceBuffer<double>(stream.backend, scratch_shape_.size());
  surface_ = DeviceBuffer<double>(stream.backend, surface_water_fields * columns_);
  set_surface(stream, std::vector<double>(surface_.size(), 0.0));
}

template <int Dims>
std::size_t WaterFields<Dims>::bytes(const FieldShape<Dims>& cells, bool water) {
  if (!water) return 0;
  return (scratch_shape_of(cells).size() + surface_water_fields * columns_of(cells)) * sizeof(double);
}

template <int Dims>
void WaterFields<Dims>::set_surface(const Stream& stream, std::span<const double> values) const {
  if (values.size() != surface_.size())
    throw Error(ExitCode::internal, "surface water",
                fmt::format("{} values for {} values of the surface fields", values.size(), surface_.size()));
  device::copy_async(stream, surface_.data(), values.data(), surface_.size() * sizeof(double),
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
