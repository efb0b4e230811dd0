#pragma once
/// BackendArray<T, Allocate, Deallocate>: an owning array of `count` T obtained from one of the
/// device runtime's allocators (RAII, move-only). DeviceBuffer and PinnedBuffer are its kinds.
#include <cstddef>
#include <utility>

#include "kernels/backend/device_runtime.hpp"

namespace simapp {

template <class T, void* (*Allocate)(Backend, std::size_t), void (*Deallocate)(Backend, void*) noexcept>
class BackendArray {
 public:
  BackendArray() = default;
  BackendArray(Backend backend, std::size_t count)
      : backend_(backend), count_(count), data_(static_cast<T*>(Allocate(backend, count * sizeof(T)))) {}
  BackendArray(const BackendArray&) = delete;
  BackendArray& operator=(const BackendArray&) = delete;
  BackendArray(BackendArray&& other) noexcept { swap(other); }
  BackendArray& operator=(BackendArray&& other) noexcept {
    BackendArray(std::move(other)).swap(*this);
    return *this;
  }
  ~BackendArray() {
    if (data_ != nullptr) Deallocate(backend_, data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  Backend backend() const { return backend_; }

 private:
  void swap(BackendArray& other) noexcept {
    std::swap(backend_, other.backend_);
    std::swap(count_, other.count_);
    std::swap(data_, other.data_);
  }

  Backend backend_ = Backend::host;
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

}  // namespace simapp
