#pragma once
/// Where a GPU sits in the machine and how it is shared: its PCI address, the NUMA node the
/// machine reports for it, and whether an NVIDIA MPS control daemon is there to let the
/// processes that share it run their kernels side by side.
#include <filesystem>
#include <string>
#include <string_view>

namespace simapp::device {

/// Device `index`'s PCI address as sysfs spells it ("0000:18:00.0"); empty without CUDA.
std::string pci_bus_id(int index);

/// The NUMA node that `sysfs`/bus/pci/devices/<bus_id>/numa_node reports, or -1 where the
/// machine reports none (no such file, or -1 in it, as on machines of one node).
int numa_node_of_pci_device(std::string_view bus_id, const std::filesystem::path& sysfs = "/sys");

/// The MPS control pipe this process would connect through (`CUDA_MPS_PIPE_DIRECTORY`, by
/// default /tmp/nvidia-mps, then `control`), or an empty path when there is none: no daemon
/// runs for this process's GPUs.
std::filesystem::path mps_control_pipe();

}  // namespace simapp::device
