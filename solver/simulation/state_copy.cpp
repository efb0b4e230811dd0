#include "solver/simulation/state_copy.hpp"

#include <cstddef>

namespace simapp {

namespace {

/// The interior cells' values of a state of `shape`.
std::size_t interior_values(const FieldShape& shape) {
  return static_cast<std::size_t>(shape.nx) * static_cast<std::size_t>(shape.nz) *
         static_cast<std::size_t>(shape.num_vars);
}

}  // namespace

StateCopy::StateCopy(Backend backend, FieldShape shape)
    : backend_(backend),
      shape_(shape),
      host_(backend, interior_values(shape)),
      staged_(backend == Backend::cuda ? DeviceBuffer<double>(backend, interior_values(shape))
                                       : DeviceBuffer<double>()),
      copy_stream_(backend),
      staged_ready_(backend),
      host_ready_(backend) {}

std::size_t StateCopy::bytes_needed(Backend backend, FieldShape shape) {
  return (backend == Backend::cuda ? 2 : 1) * interior_values(shape) * sizeof(double);
}

void StateCopy::begin(const Stream& stream, const double* state) {
  const std::size_t row_bytes = static_cast<std::size_t>(shape_.nx) * sizeof(double);
  const std::size_t padded_row_bytes = static_cast<std::size_t>(shape_.padded_nx()) * sizeof(double);
  const bool on_device = backend_ == Backend::cuda;
  double* into = on_device ? staged_.data() : host_.data();
  for (int v = 0; v < shape_.num_vars; ++v)
    device::copy_rows_async(
        stream, into + static_cast<std::size_t>(v) * shape_.nz * shape_.nx, row_bytes, state + shape_.offset(v, 0, 0),
        padded_row_bytes, row_bytes, static_cast<std::size_t>(shape_.nz),
        on_device ? device::CopyDirection::device_to_device : device::CopyDirection::device_to_host);
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
