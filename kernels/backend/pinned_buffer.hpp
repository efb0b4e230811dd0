#pragma once
/// PinnedBuffer<T>: an owning host array the GPU can copy to and from asynchronously (plain
/// host memory on the host backend).
#include <cstddef>
#include <utility>

#include "kernels/backend/device_runtime.hpp"

namespace simapp {

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(Backend backend, std::size_t count)
      : backend_(backend), count_(count), data_(static_cast<T*>(device::allocate_pinned(backend, count * sizeof(T)))) {}
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept { swap(other); }
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    PinnedBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) device::deallocate_pinned(backend_, data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  void swap(PinnedBuffer& other) noexcept {
    std::swap(backend_, other.backend_);
    std::swap(count_, other.count_);
    std::swap(data_, other.data_);
  }

  Backend backend_ = Backend::host;
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

}  // namespace simapp
