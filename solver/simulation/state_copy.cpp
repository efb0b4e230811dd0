#include "solver/simulation/state_copy.hpp"

#include <cstddef>
#include <utility>

namespace simapp {

StateCopy::StateCopy(Backend backend, InteriorLayout layout)
    : backend_(backend),
      layout_(std::move(layout)),
      host_(backend, layout_.values()),
      staged_(backend == Backend::cuda ? DeviceBuffer<double>(backend, layout_.values()) : DeviceBuffer<double>()),
      copy_stream_(backend),
      staged_ready_(backend),
      host_ready_(backend) {}

std::size_t StateCopy::bytes_needed(Backend backend, const InteriorLayout& layout) {
  return (backend == Backend::cuda ? 2 : 1) * layout.values() * sizeof(double);
}

void StateCopy::begin(const Stream& stream, const double* state) {
  const std::size_t row_bytes = layout_.row_length * sizeof(double);
  const std::size_t padded_row_bytes = layout_.row_pitch * sizeof(double);
  const bool on_device = backend_ == Backend::cuda;
  double* into = on_device ? staged_.data() : host_.data();
  for (const RowRun& run : layout_.runs) {
    device::copy_rows_async(
        stream, into, row_bytes, state + run.first, padded_row_bytes, row_bytes, run.rows,
        on_device ? device::CopyDirection::device_to_device : device::CopyDirection::device_to_host);
    into += run.rows * layout_.row_length;
  }
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
  return {host_.data(), host_.size()};
}

}  // namespace simapp
