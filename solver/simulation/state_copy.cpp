#include "solver/simulation/state_copy.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace simapp {

namespace {

/// Doubles that hold `values` values of `value_bytes` bytes each.
std::size_t slots_for(std::size_t values, std::size_t value_bytes) {
  return (values * value_bytes + sizeof(double) - 1) / sizeof(double);
}

}  // namespace

StateCopy::StateCopy(Backend backend, InteriorLayout layout, std::size_t surface_values, Precision precision)
    : backend_(backend),
      layout_(std::move(layout)),
      surface_values_(surface_values),
      value_bytes_(value_bytes(precision)),
      interior_slots_(slots_for(layout_.values(), value_bytes_)),
      host_(backend, interior_slots_ + surface_values),
      widened_(value_bytes_ == sizeof(double) ? 0 : layout_.values() + surface_values),
      staged_(backend == Backend::cuda ? DeviceBuffer<double>(backend, interior_slots_ + surface_values)
                                       : DeviceBuffer<double>()),
      copy_stream_(backend),
      staged_ready_(backend),
      host_ready_(backend) {}

std::size_t StateCopy::bytes_needed(Backend backend, const InteriorLayout& layout, std::size_t surface_values) {
  return (backend == Backend::cuda ? 2 : 1) * (layout.values() + surface_values) * sizeof(double);
}

void StateCopy::begin(const Stream& stream, const void* state, const double* surface) {
  const std::size_t row_bytes = layout_.row_length * value_bytes_;
  const std::size_t padded_row_bytes = layout_.row_pitch * value_bytes_;
  const bool on_device = backend_ == Backend::cuda;
  const auto direction = on_device ? device::CopyDirection::device_to_device : device::CopyDirection::device_to_host;
  double* into_buffer = on_device ? staged_.data() : host_.data();
  auto* into = reinterpret_cast<unsigned char*>(into_buffer);
  const auto* from = static_cast<const unsigned char*>(state);
  for (const RowRun& run : layout_.runs) {
    device::copy_rows_async(stream, into, row_bytes, from + run.first * value_bytes_, padded_row_bytes, row_bytes,
                            run.rows, direction);
    into += run.rows * row_bytes;
  }
  if (surface_values_ > 0)
    device::copy_async(stream, into_buffer + interior_slots_, surface, surface_values_ * sizeof(double), direction);
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
  collected_ = host_.data();
  if (value_bytes_ != sizeof(double)) {  // float32: each value widened, exactly
    const auto* values = reinterpret_cast<const float*>(host_.data());
    std::copy(values, values + layout_.values(), widened_.begin());
    std::copy(host_.data() + interior_slots_, host_.data() + interior_slots_ + surface_values_,
              widened_.begin() + static_cast<std::ptrdiff_t>(layout_.values()));
    collected_ = widened_.data();
  }
  return {collected_, layout_.values()};
}

}  // namespace simapp
