#pragma once
/// PinnedBuffer<T>: an owning host array the GPU can copy to and from asynchronously (plain
/// host memory on the host backend).
#include "kernels/backend/backend_array.hpp"

namespace simapp {

template <class T>
using PinnedBuffer = BackendArray<T, device::allocate_pinned, device::deallocate_pinned>;

}  // namespace simapp
