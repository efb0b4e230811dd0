#include "kernels/backend/gpu_topology.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <system_error>

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp::device {

std::string pci_bus_id([[maybe_unused]] int index) {
#if SIMAPP_USE_CUDA
  char bus_id[32] = {};
  SIMAPP_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
  std::string address(bus_id);
  std::ranges::transform(address, address.begin(), [](unsigned char c) { return std::tolower(c); });
  return address;
#else
  return {};
#endif
}

int numa_node_of_pci_device(std::string_view bus_id, const std::filesystem::path& sysfs) {
  if (bus_id.empty()) return -1;
  std::ifstream file(sysfs / "bus/pci/devices" / bus_id / "numa_node");
  int node = -1;
  if (!(file >> node) || node < 0) return -1;
  return node;
}

std::filesystem::path mps_control_pipe() {
  const char* directory = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::filesystem::path pipe =
      std::filesystem::path(directory != nullptr && *directory != '\0' ? directory : "/tmp/nvidia-mps") / "control";
  std::error_code ignored;
  return std::filesystem::exists(pipe, ignored) ? pipe : std::filesystem::path();
}

}  // namespace simapp::device
