#include "solver/simulation/step_profile.hpp"

#include <algorithm>
#include <map>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/stream_timer.hpp"

namespace simapp {

namespace {

/// The op's name without the chunk prefix ("step1/").
std::string op_name(const std::string& name) {
  const auto slash = name.find('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

double copy_bandwidth(const Stream& stream, std::size_t bytes) {
  const std::size_t values = bytes / sizeof(double);
  const DeviceBuffer<double> source(stream.backend, values), target(stream.backend, values);
  StreamTimer timer(stream);
  double best = 0.0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    timer.start();
    device::copy_async(stream, target.data(), source.data(), values * sizeof(double),
                       device::CopyDirection::device_to_device);
    timer.stop();
    best = std::max(best, 2.0 * static_cast<double>(values * sizeof(double)) / timer.seconds());
  }
  return best;
}

StepProfile profile_steps(Simulation& simulation, int warmup, int steps) {
  for (int s = 0; s < warmup && !simulation.finished(); ++s) simulation.time_next_step();
  StepProfile profile;
  std::map<std::string, std::vector<double>> seconds;
  std::vector<double> step_seconds;
  for (int s = 0; s < steps && !simulation.finished(); ++s, ++profile.measured_steps) {
    double step = 0.0;
    for (const auto& [op, time] : simulation.time_next_step()) {
      const std::string name = op_name(op->name);
      if (!seconds.contains(name)) profile.ops.push_back({name, op->kind, 0.0, {}, op->bytes});
      seconds[name].push_back(time);
      step += time;
    }
    step_seconds.push_back(step);
  }
  for (OpProfile& op : profile.ops) {
    op.times = summarize(seconds[op.name]);
    op.seconds = op.times.median;
    profile.step_seconds += op.seconds;
    profile.step_bytes += op.bytes;
  }
  if (!step_seconds.empty()) profile.step_times = summarize(step_seconds);
  const FieldShape<2> shape = simulation.grid().cell_shape<2>();
  const RankBox& box = simulation.grid().box();
  profile.cells = static_cast<long>(box.nx) * box.ny * box.nz;
  profile.copy_bandwidth =
      copy_bandwidth(simulation.stream(), std::max<std::size_t>(std::size_t{1} << 28, shape.size() * sizeof(double)));
  return profile;
}

}  // namespace simapp
