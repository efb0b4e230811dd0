#include "solver/simulation/state_copy.hpp"

#include <cstddef>
#include <utility>

namespace simapp {

StateCopy::StateCopy(Backend backend, InteriorLayout layout, std::size_t surface_values)
    : backend_(backend),
      layout_(std::move(layout)),
      surface_values_(surface_values),
      host_(backend, layout_.values() + surface_values),
      staged_(backend == Backend::cuda ? DeviceBuffer<double>(backend, layout_.values() + surface_values)
                                       : DeviceBuffer<double>()),
      copy_stream_(backend),
      staged_ready_(backend),
      host_ready_(backend) {}

std::size_t StateCopy::bytes_needed(Backend backend, const InteriorLayout& layout, std::size_t surface_values) {
  return (backend == Backend::cuda ? 2 : 1) * (layout.values() + surface_values) * sizeof(double);
}

void StateCopy::begin(const Stream& stream, const double* state, const double* surface) {
  const std::size_t row_bytes = layout_.row_length * sizeof(double);
  const std::size_t padded_row_bytes = layout_.row_pitch * sizeof(double);
  const bool on_device = backend_ == Backend::cuda;
  const auto direction = on_device ? device::CopyDirection::device_to_device : device::CopyDirection::device_to_host;
  double* into = on_device ? staged_.data() : host_.data();
  for (const RowRun& run : layout_.runs) {
    device::copy_rows_async(stream, into, row_bytes, state + run.first, padded_row_bytes, row_bytes, run.rows,
                            direction);
    into += run.rows * layout_.row_length;
  }
  if (surface_values_ > 0) device::copy_async(stream, into, surface, surface_values_ * sizeof(double), direction);
  (on_device ? staged_ready_ : host_ready_).record(stream);
}

std::span<const double> StateCopy::collect() {
  if (backend_ == Backend::cuda) {
    staged_ready_.make_wait(copy_stream_.get());
    device::copy_async(copy_stream_.get(), host_.data(), staged_.data(), host_.size() * sizeof(double),
                       device::CopyDirection::device_to_host);
    host_ready_.record(copy_stream_.get());
  }
  host_ready_.wait();
  return {host_.data(), layout_.values()};
}

}  // namespace simapp
