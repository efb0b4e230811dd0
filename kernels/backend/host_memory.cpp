#include "kernels/backend/host_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

#include <omp.h>

namespace simapp::device {

namespace {

constexpr std::size_t no_limit = std::numeric_limits<std::size_t>::max();

/// MemAvailable from /proc/meminfo, bytes.
std::size_t node_available() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string name; meminfo >> name;) {
    std::size_t kilobytes = 0;
    if (name == "MemAvailable:" && meminfo >> kilobytes) return kilobytes * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// A number in a file of one line, when it holds one ("max" does not).
std::optional<std::size_t> number_in(const std::string& path) {
  std::ifstream in(path);
  std::size_t value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

/// memory.max − memory.current of this process's cgroup v2, when it has a limit.
std::size_t cgroup_room() {
  std::ifstream membership("/proc/self/cgroup");
  for (std::string line; std::getline(membership, line);) {
    if (!line.starts_with("0::")) continue;  // the v2 hierarchy
    const std::string group = "/sys/fs/cgroup" + line.substr(3);
    const auto limit = number_in(group + "/memory.max");
    if (!limit) return no_limit;
    const std::size_t used = number_in(group + "/memory.current").value_or(0);
    return *limit > used ? *limit - used : 0;
  }
  return no_limit;
}

/// The address space this process has mapped, bytes (/proc/self/statm's first field, in pages).
std::size_t mapped_bytes() {
  return number_in("/proc/self/statm").value_or(0) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// RLIMIT_AS less what is mapped.
std::size_t address_space_room() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return no_limit;
  const std::size_t taken = mapped_bytes();
  return limit.rlim_cur > taken ? static_cast<std::size_t>(limit.rlim_cur) - taken : 0;
}

}  // namespace

HostMemoryRoom host_memory_room() { return {std::min(node_available(), cgroup_room()), address_space_room()}; }

std::size_t address_space_per_thread() {
  constexpr std::size_t malloc_arena = std::size_t{64} << 20;
  rlimit stack{};
  const std::size_t stack_bytes = getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY
                                      ? static_cast<std::size_t>(stack.rlim_cur)
                                      : std::size_t{8} << 20;
  return stack_bytes + malloc_arena;
}

int host_compute_threads() { return omp_get_max_threads(); }

}  // namespace simapp::device
