#pragma once
/// How much more host memory this process may take before an allocation fails or the process
/// is killed for it: what the node has available, what the control group the process runs in
/// leaves (cgroup v2 memory.max: what Slurm's --mem and job containers set), and what the
/// process's address-space limit leaves (RLIMIT_AS: `ulimit -v`, SGE's h_vmem).
#include <cstddef>

namespace simapp::device {

struct HostMemoryRoom {
  /// Bytes the node's memory and the control group leave: shared by the ranks on the node.
  std::size_t node = 0;
  /// Bytes this process may still map under its address-space limit; SIZE_MAX without a limit.
  std::size_t process = 0;
};

/// The room now.
HostMemoryRoom host_memory_room();

/// The address space a thread the process starts takes: its stack (as large as the stack
/// limit, glibc's default) and the 64 MiB glibc reserves for the malloc arena of a thread.
std::size_t address_space_per_thread();

/// The threads the host backend computes on (OpenMP's).
int host_compute_threads();

}  // namespace simapp::device
