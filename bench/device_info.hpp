#pragma once
/// The CUDA device simapp-bench measures (device 0), and the CUDA versions it runs with.
#include <string>

namespace simapp::bench {

/// Device 0 as the report describes it.
struct DeviceInfo {
  std::string name;
  int major = 0;  ///< compute capability major.minor
  int minor = 0;
  int sm_count = 0;
  double memory_gib = 0;
  int l2_cache_mib = 0;
  int sm_clock_mhz = 0;
  int memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  int driver_version = 0;   ///< highest CUDA version the driver supports, e.g. 13000 for 13.0
  int runtime_version = 0;  ///< the CUDA runtime's version, e.g. 13000 for 13.0
};

/// Throws (exit code 2) when no CUDA device can be used.
void require_device();

/// Device 0 and the CUDA versions.
DeviceInfo describe_device();

}  // namespace simapp::bench
