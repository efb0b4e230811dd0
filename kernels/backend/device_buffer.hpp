#pragma once
/// DeviceBuffer<T>: an owning array in the memory of the run's backend (RAII).
#include <cstddef>
#include <utility>
#include <vector>

#include "kernels/backend/device_runtime.hpp"

namespace simapp {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(Backend backend, std::size_t count)
      : backend_(backend),
        count_(count),
        data_(static_cast<T*>(device::allocate(backend, count * sizeof(T)))) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) device::deallocate(backend_, data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  Backend backend() const { return backend_; }

  /// Copies `values` (exactly size() of them) in, waiting for completion.
  void copy_from_host(const Stream& stream, const std::vector<T>& values) {
    device::copy_async(stream, data_, values.data(), count_ * sizeof(T),
                       device::CopyDirection::host_to_device);
    device::synchronize(stream);
  }

  /// Copies the whole buffer out, waiting for completion.
  std::vector<T> copy_to_host(const Stream& stream) const {
    std::vector<T> values(count_);
    device::copy_async(stream, values.data(), data_, count_ * sizeof(T),
                       device::CopyDirection::device_to_host);
    device::synchronize(stream);
    return values;
  }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(backend_, other.backend_);
    std::swap(count_, other.count_);
    std::swap(data_, other.data_);
  }

  Backend backend_ = Backend::host;
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

}  // namespace simapp
