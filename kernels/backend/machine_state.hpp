#pragma once
/// The machine's state at a moment, for timings that depend on it: the load of the node (other
/// processes take cores and memory bandwidth), the CPUs' clock and its governor, and the GPU's
/// clocks, temperature and power (a hot or throttled GPU runs slower). Read where the machine
/// lets it be read; what is not readable is empty.
#include <array>
#include <filesystem>
#include <optional>
#include <string>

#include "kernels/backend/backend_kind.hpp"

namespace simapp::device {

/// The current GPU's state: from NVML where the build and the driver have it, else what the
/// CUDA runtime tells (the peak clocks, no temperature).
struct GpuState {
  int device = -1;
  std::string source;                                  ///< "NVML" or "CUDA runtime"
  std::optional<double> sm_clock_mhz;                  ///< now (NVML)
  std::optional<double> memory_clock_mhz;              ///< now (NVML)
  std::optional<double> max_sm_clock_mhz;              ///< the peak
  std::optional<double> temperature_c;                 ///< NVML
  std::optional<double> power_w;                       ///< NVML
  std::optional<unsigned long long> throttle_reasons;  ///< NVML's bit mask; 0: none, the GPU runs at will
};

struct MachineState {
  std::optional<std::array<double, 3>> load_average;  ///< runnable processes, over 1, 5 and 15 minutes
  int cpus_online = 0;
  std::optional<double> cpu_mhz_min;  ///< the CPUs' clocks now, lowest and highest
  std::optional<double> cpu_mhz_max;
  std::string cpu_mhz_source;   ///< "cpufreq" (sysfs) or "cpuinfo" (/proc/cpuinfo); empty: not readable
  std::string governor;         ///< cpufreq's scaling governors, comma-separated; empty: not readable
  std::optional<GpuState> gpu;  ///< none on the host backend
};

/// The state now of the machine this process runs on, and of its current GPU with the CUDA
/// backend; `proc` and `sys` are where /proc and /sys are mounted.
MachineState read_machine_state(Backend backend, const std::filesystem::path& proc = "/proc",
                                const std::filesystem::path& sys = "/sys");

}  // namespace simapp::device
