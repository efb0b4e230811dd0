#pragma once
/// DeviceBuffer<T>: an owning array in the memory of the run's backend (RAII), with a
/// whole-array copy to the host.
#include <vector>

#include "kernels/backend/backend_array.hpp"

namespace simapp {

template <class T>
class DeviceBuffer : public BackendArray<T, device::allocate, device::deallocate> {
 public:
  using BackendArray<T, device::allocate, device::deallocate>::BackendArray;

  /// Copies the whole buffer out, waiting for completion.
  std::vector<T> copy_to_host(const Stream& stream) const {
    std::vector<T> values(this->size());
    device::copy_async(stream, values.data(), this->data(), this->size() * sizeof(T),
                       device::CopyDirection::device_to_host);
    device::synchronize(stream);
    return values;
  }
};

}  // namespace simapp
