#pragma once
/// Counts kernel launches made through parallel_for (one per call, on either backend), so
/// tests can check a plan's kernel count against the launches an executor really makes.
#include <atomic>
#include <cstdint>

namespace simapp {

namespace detail {
inline std::atomic<std::int64_t> kernel_launches{0};
}  // namespace detail

inline void count_kernel_launch() { detail::kernel_launches.fetch_add(1, std::memory_order_relaxed); }
inline std::int64_t kernel_launches_so_far() { return detail::kernel_launches.load(std::memory_order_relaxed); }

}  // namespace simapp
