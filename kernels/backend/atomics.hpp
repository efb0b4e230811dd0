#pragma once
/// Atomic read-modify-write operations for kernel bodies that run on the device (CUDA atomics)
/// or in host threads (GCC atomic built-ins), with relaxed ordering: a kernel's result is
/// read only after the kernel ends.
#include <cstdint>

#include "kernels/backend/host_device.hpp"

namespace simapp {

/// If *target == expected, sets it to desired; returns the value *target held before.
SIMAPP_HOST_DEVICE inline std::int64_t atomic_compare_exchange(std::int64_t* target, std::int64_t expected,
                                                               std::int64_t desired) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::int64_t>(atomicCAS(reinterpret_cast<unsigned long long*>(target),
                                             static_cast<unsigned long long>(expected),
                                             static_cast<unsigned long long>(desired)));
#else
  __atomic_compare_exchange_n(target, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
#endif
}

/// *target = min(*target, value).
SIMAPP_HOST_DEVICE inline void atomic_min(std::uint64_t* target, std::uint64_t value) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(value));
#else
  std::uint64_t seen = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (value < seen && !__atomic_compare_exchange_n(target, &seen, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

}  // namespace simapp
