#pragma once
/// The microphysics' own arrays (kernels/microphysics/microphysics.hpp), in the run's backend's
/// memory: its scratch over the rank's interior cells and its fields over the rank's surface
/// (precipitation_amount, the rain rate, the clipped water), zero at the start. A dry run has none.
#include <span>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/microphysics/microphysics.hpp"

namespace simapp {

template <int Dims>
class WaterFields {
 public:
  /// The arrays of a rank's `cells` (FieldShape<Dims>: nx, ny, nz); none where `water` is false.
  WaterFields(const Stream& stream, const FieldShape<Dims>& cells, bool water);
  /// The bytes those arrays take.
  static std::size_t bytes(const FieldShape<Dims>& cells, bool water);

  /// The scratch, MicrophysicsScratch::count variables over the interior cells (no halo).
  FieldView<double, Dims> scratch() const { return {scratch_.data(), scratch_shape_}; }
  SurfaceWater surface() const;
  /// The surface fields [field][j][i], precipitation, rain rate, clipped, copied to the host.
  std::vector<double> surface_on_host(const Stream& stream) const { return surface_.copy_to_host(stream); }
  /// The surface fields where they are, [field][j][i] (empty in a dry run).
  std::span<double> surface_fields() const { return {surface_.data(), surface_.size()}; }
  /// Sets the surface fields to `values` ([field][j][i]) and waits.
  void set_surface(const Stream& stream, std::span<const double> values) const;

 private:
  /// The scratch's shape over `cells`: MicrophysicsScratch::count variables, no halo.
  static FieldShape<Dims> scratch_shape_of(const FieldShape<Dims>& cells) {
    return {cells.nx, cells.ny, cells.nz, 0, static_cast<int>(MicrophysicsScratch::count)};
  }
  /// The surface's columns of `cells`.
  static std::size_t columns_of(const FieldShape<Dims>& cells) {
    return static_cast<std::size_t>(cells.nx) * static_cast<std::size_t>(cells.ny);
  }

  FieldShape<Dims> scratch_shape_;
  std::size_t columns_ = 0;
  DeviceBuffer<double> scratch_;
  DeviceBuffer<double> surface_;
};

}  // namespace simapp
