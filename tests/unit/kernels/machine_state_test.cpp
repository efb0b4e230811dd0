// The machine's state as read from /proc and /sys, against made-up trees: the load average,
// the CPUs' clocks from cpufreq (else /proc/cpuinfo) and their governors, and no GPU on the host.
#include "kernels/backend/machine_state.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace simapp::device {
namespace {

namespace fs = std::filesystem;

class MachineStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("simapp-machine-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(proc());
    fs::create_directories(sys() / "devices/system/cpu");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path proc() const { return root_ / "proc"; }
  fs::path sys() const { return root_ / "sys"; }
  void write(const fs::path& path, const std::string& text) const {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  void add_cpufreq(const std::string& cpu, const std::string& khz, const std::string& governor) const {
    const fs::path directory = sys() / "devices/system/cpu" / cpu / "cpufreq";
    write(directory / "scaling_cur_freq", khz + "\n");
    write(directory / "scaling_governor", governor + "\n");
  }

  fs::path root_;
};

TEST_F(MachineStateTest, ReadsTheLoadTheCpufreqClocksAndTheGovernors) {
  write(proc() / "loadavg", "3.52 1.40 0.31 2/123 4567\n");
  add_cpufreq("cpu0", "1200000", "powersave");
  add_cpufreq("cpu1", "3400000", "performance");
  add_cpufreq("cpu12", "2000000", "performance");
  // cpufreq's own directory and the like are not CPUs.
  write(sys() / "devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "99\n");
  write(proc() / "cpuinfo", "cpu MHz\t\t: 777.0\n");
  const MachineState state = read_machine_state(Backend::host, proc(), sys());
  ASSERT_TRUE(state.load_average);
  EXPECT_EQ(*state.load_average, (std::array<double, 3>{3.52, 1.40, 0.31}));
  EXPECT_EQ(state.cpus_online, sysconf(_SC_NPROCESSORS_ONLN));
  ASSERT_TRUE(state.cpu_mhz_min && state.cpu_mhz_max);
  EXPECT_EQ(*state.cpu_mhz_min, 1200.0);
  EXPECT_EQ(*state.cpu_mhz_max, 3400.0);
  EXPECT_EQ(state.cpu_mhz_source, "cpufreq");
  EXPECT_EQ(state.governor, "performance,powersave");
  EXPECT_FALSE(state.gpu) << "the host backend uses no GPU";
}

TEST_F(MachineStateTest, WithoutCpufreqTheClocksComeFromCpuinfoAndTheGovernorIsNotReadable) {
  write(proc() / "loadavg", "0.00 0.01 0.05 1/80 99\n");
  write(proc() / "cpuinfo",
        "processor\t: 0\ncpu MHz\t\t: 1996.248\nflags\t\t: fpu\n\nprocessor\t: 1\ncpu MHz\t\t: 2100.5\n");
  const MachineState state = read_machine_state(Backend::host, proc(), sys());
  ASSERT_TRUE(state.cpu_mhz_min && state.cpu_mhz_max);
  EXPECT_EQ(*state.cpu_mhz_min, 1996.248);
  EXPECT_EQ(*state.cpu_mhz_max, 2100.5);
  EXPECT_EQ(state.cpu_mhz_source, "cpuinfo");
  EXPECT_EQ(state.governor, "");
}

TEST_F(MachineStateTest, NothingReadableIsEmpty) {
  const MachineState state = read_machine_state(Backend::host, proc(), sys());
  EXPECT_FALSE(state.load_average);
  EXPECT_FALSE(state.cpu_mhz_min);
  EXPECT_EQ(state.cpu_mhz_source, "");
  EXPECT_EQ(state.governor, "");
}

}  // namespace
}  // namespace simapp::device
