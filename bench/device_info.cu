#include "bench/device_info.hpp"

#include <cuda_runtime.h>
#include <fmt/core.h>

#include "bench/bench_cuda_check.cuh"
#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

/// One integer attribute of device 0.
int device_attribute(cudaDeviceAttr attribute) {
  int value = 0;
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, 0));
  return value;
}

}  // namespace

void require_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    throw Error(ExitCode::bad_input, "", fmt::format("no CUDA device visible ({})", cudaGetErrorString(status)));
  if (count == 0) throw Error(ExitCode::bad_input, "", "no CUDA device visible");
}

DeviceInfo describe_device() {
  cudaDeviceProp prop{};
  BENCH_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  DeviceInfo device;
  BENCH_CUDA_CHECK(cudaDriverGetVersion(&device.driver_version));
  BENCH_CUDA_CHECK(cudaRuntimeGetVersion(&device.runtime_version));
  device.name = prop.name;
  device.major = prop.major;
  device.minor = prop.minor;
  device.sm_count = prop.multiProcessorCount;
  device.memory_gib = static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  device.l2_cache_mib = prop.l2CacheSize / (1024 * 1024);
  device.sm_clock_mhz = device_attribute(cudaDevAttrClockRate) / 1000;
  device.memory_clock_mhz = device_attribute(cudaDevAttrMemoryClockRate) / 1000;
  device.memory_bus_bits = prop.memoryBusWidth;
  return device;
}

}  // namespace simapp::bench
