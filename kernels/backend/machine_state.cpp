#include "kernels/backend/machine_state.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string_view>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/gpu_topology.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp::device {

namespace {

namespace fs = std::filesystem;

/// The load average in `proc`/loadavg: "0.52 0.40 0.31 1/123 4567".
std::optional<std::array<double, 3>> read_load_average(const fs::path& proc) {
  std::ifstream in(proc / "loadavg");
  std::array<double, 3> load{};
  if (in >> load[0] >> load[1] >> load[2]) return load;
  return std::nullopt;
}

/// The values in the files cpu<N>/cpufreq/`name` below `sys`/devices/system/cpu, as text.
std::vector<std::string> cpufreq_values(const fs::path& sys, std::string_view name) {
  std::vector<std::string> values;
  std::error_code error;
  for (const fs::directory_entry& cpu : fs::directory_iterator(sys / "devices/system/cpu", error)) {
    const std::string cpu_name = cpu.path().filename().string();
    if (!cpu_name.starts_with("cpu") || cpu_name.find_first_not_of("0123456789", 3) != std::string::npos ||
        cpu_name.size() == 3)
      continue;
    std::ifstream in(cpu.path() / "cpufreq" / name);
    if (std::string value; in >> value) values.push_back(value);
  }
  return values;
}

/// The "cpu MHz" lines of `proc`/cpuinfo (x86), where cpufreq is not there (virtual machines).
std::vector<double> cpuinfo_mhz(const fs::path& proc) {
  std::vector<double> mhz;
  std::ifstream in(proc / "cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("cpu MHz")) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    try {
      mhz.push_back(std::stod(line.substr(colon + 1)));
    } catch (const std::exception&) {
    }
  }
  return mhz;
}

void read_cpu_clocks(MachineState& state, const fs::path& proc, const fs::path& sys) {
  std::vector<double> mhz;
  for (const std::string& khz : cpufreq_values(sys, "scaling_cur_freq")) {
    try {
      mhz.push_back(std::stod(khz) / 1e3);
    } catch (const std::exception&) {
    }
  }
  state.cpu_mhz_source = "cpufreq";
  if (mhz.empty()) {
    mhz = cpuinfo_mhz(proc);
    state.cpu_mhz_source = mhz.empty() ? "" : "cpuinfo";
  }
  if (!mhz.empty()) {
    const auto [lowest, highest] = std::ranges::minmax(mhz);
    state.cpu_mhz_min = lowest;
    state.cpu_mhz_max = highest;
  }
  const std::vector<std::string> governors = cpufreq_values(sys, "scaling_governor");
  for (const std::string& governor : std::set<std::string>(governors.begin(), governors.end()))
    state.governor += (state.governor.empty() ? "" : ",") + governor;
}

/// NVML, the driver's management library, opened at run time (it comes with the driver, not with
/// the toolkit a build has): its few entry points used here, as its C interface declares them.
class Nvml {
 public:
  Nvml() {
    library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) return;
    init_ = symbol<Status()>("nvmlInit_v2");
    shutdown_ = symbol<Status()>("nvmlShutdown");
    by_bus_id_ = symbol<Status(const char*, Device*)>("nvmlDeviceGetHandleByPciBusId_v2");
    clock_ = symbol<Status(Device, int, unsigned*)>("nvmlDeviceGetClockInfo");
    max_clock_ = symbol<Status(Device, int, unsigned*)>("nvmlDeviceGetMaxClockInfo");
    temperature_ = symbol<Status(Device, int, unsigned*)>("nvmlDeviceGetTemperature");
    power_ = symbol<Status(Device, unsigned*)>("nvmlDeviceGetPowerUsage");
    throttle_ = symbol<Status(Device, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons");
    ready_ = init_ != nullptr && shutdown_ != nullptr && by_bus_id_ != nullptr && init_() == success;
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  ~Nvml() {
    if (ready_) shutdown_();
    if (library_ != nullptr) dlclose(library_);
  }

  /// The state of the GPU at PCI address `bus_id`; false where NVML cannot tell.
  bool read(const std::string& bus_id, GpuState& gpu) const {
    Device device = nullptr;
    if (!ready_ || by_bus_id_(bus_id.c_str(), &device) != success) return false;
    gpu.source = "NVML";
    unsigned value = 0;
    if (clock_ != nullptr && clock_(device, clock_sm, &value) == success) gpu.sm_clock_mhz = value;
    if (clock_ != nullptr && clock_(device, clock_memory, &value) == success) gpu.memory_clock_mhz = value;
    if (max_clock_ != nullptr && max_clock_(device, clock_sm, &value) == success) gpu.max_sm_clock_mhz = value;
    if (temperature_ != nullptr && temperature_(device, temperature_gpu, &value) == success) gpu.temperature_c = value;
    if (power_ != nullptr && power_(device, &value) == success) gpu.power_w = value / 1e3;  // from mW
    if (unsigned long long reasons = 0; throttle_ != nullptr && throttle_(device, &reasons) == success)
      gpu.throttle_reasons = reasons;
    return true;
  }

 private:
  using Status = int;             // nvmlReturn_t
  using Device = struct Opaque*;  // nvmlDevice_t
  static constexpr Status success = 0;
  static constexpr int clock_sm = 1, clock_memory = 2, temperature_gpu = 0;

  template <class Signature>
  Signature* symbol(const char* name) const {
    return reinterpret_cast<Signature*>(dlsym(library_, name));
  }

  void* library_ = nullptr;
  bool ready_ = false;
  Status (*init_)() = nullptr;
  Status (*shutdown_)() = nullptr;
  Status (*by_bus_id_)(const char*, Device*) = nullptr;
  Status (*clock_)(Device, int, unsigned*) = nullptr;
  Status (*max_clock_)(Device, int, unsigned*) = nullptr;
  Status (*temperature_)(Device, int, unsigned*) = nullptr;
  Status (*power_)(Device, unsigned*) = nullptr;
  Status (*throttle_)(Device, unsigned long long*) = nullptr;
};

/// The current GPU's state: NVML's, else the CUDA runtime's peak clock.
GpuState read_gpu_state() {
  GpuState gpu;
  gpu.device = current_device();
  if (Nvml nvml; nvml.read(pci_bus_id(gpu.device), gpu)) return gpu;
  gpu.source = "CUDA runtime";
#if SIMAPP_USE_CUDA
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, gpu.device) == cudaSuccess && khz > 0)
    gpu.max_sm_clock_mhz = khz / 1e3;
#endif
  return gpu;
}

}  // namespace

MachineState read_machine_state(Backend backend, const fs::path& proc, const fs::path& sys) {
  MachineState state;
  state.load_average = read_load_average(proc);
  state.cpus_online = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  read_cpu_clocks(state, proc, sys);
  if (backend == Backend::cuda) state.gpu = read_gpu_state();
  return state;
}

}  // namespace simapp::device
