#pragma once
/// copy_into_tile(to, from): one value from global memory into a tile in shared memory. On the
/// GPU an asynchronous copy (cp.async): the thread goes on at once, so all its copies of a
/// load phase are in flight together, none waiting in a register for its store;
/// wait_for_tile_copies() waits for them, before the barrier that ends the phase. On the
/// host, a plain copy.
#include "kernels/backend/host_device.hpp"

#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

namespace simapp {

template <class T>
SIMAPP_HOST_DEVICE inline void copy_into_tile(T& to, const T& from) {
#if defined(__CUDA_ARCH__)
  __pipeline_memcpy_async(&to, &from, sizeof(T));
#else
  to = from;
#endif
}

#if defined(__CUDACC__)
/// Waits for the calling thread's copy_into_tile copies.
__device__ inline void wait_for_tile_copies() {
  __pipeline_commit();
  __pipeline_wait_prior(0);
}
#endif

}  // namespace simapp
