// The GPU's NUMA node as sysfs reports it and the MPS control pipe as CUDA clients find it,
// against a made-up sysfs tree and pipe directory.
#include "kernels/backend/gpu_topology.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace simapp::device {
namespace {

namespace fs = std::filesystem;

class GpuTopologyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("simapp-topology-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    unsetenv("CUDA_MPS_PIPE_DIRECTORY");
    fs::remove_all(root_);
  }
  void add_pci_device(const std::string& bus_id, const std::string& numa_node) {
    const fs::path directory = root_ / "bus/pci/devices" / bus_id;
    fs::create_directories(directory);
    std::ofstream(directory / "numa_node") << numa_node << "\n";
  }
  fs::path root_;
};

TEST_F(GpuTopologyTest, ReadsTheNumaNodeOfThePciDevice) {
  add_pci_device("0000:18:00.0", "0");
  add_pci_device("0000:9a:00.0", "1");
  EXPECT_EQ(numa_node_of_pci_device("0000:18:00.0", root_), 0);
  EXPECT_EQ(numa_node_of_pci_device("0000:9a:00.0", root_), 1);
}

TEST_F(GpuTopologyTest, ReportsNoNodeWhereTheMachineReportsNone) {
  add_pci_device("0000:01:00.0", "-1");  // what a machine of one NUMA node writes
  add_pci_device("0000:02:00.0", "");
  EXPECT_EQ(numa_node_of_pci_device("0000:01:00.0", root_), -1);
  EXPECT_EQ(numa_node_of_pci_device("0000:02:00.0", root_), -1);
  EXPECT_EQ(numa_node_of_pci_device("0000:03:00.0", root_), -1);  // no such device
  EXPECT_EQ(numa_node_of_pci_device("", root_), -1);              // no GPU at all
}

TEST_F(GpuTopologyTest, FindsTheMpsControlPipeOnlyWhereADaemonOpenedIt) {
  ASSERT_EQ(setenv("CUDA_MPS_PIPE_DIRECTORY", root_.c_str(), 1), 0);
  EXPECT_TRUE(mps_control_pipe().empty());
  std::ofstream(root_ / "control") << "";
  EXPECT_EQ(mps_control_pipe(), root_ / "control");
}

}  // namespace
}  // namespace simapp::device
