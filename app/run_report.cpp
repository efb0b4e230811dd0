#include "app/run_report.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "simapp_version.hpp"

namespace simapp::app {

void print_header(std::FILE* out, const Simulation& simulation, const std::string& config_path) {
  const Grid& grid = simulation.grid();
  const TimePlan& plan = simulation.time_plan();
  fmt::print(out, "simapp {} (git {}): dry compressible atmosphere\n", build_info::version, build_info::git_hash);
  fmt::print(out, "  config    {}\n", config_path);
  fmt::print(out, "  case      {}\n", to_string(simulation.spec().case_name));
  fmt::print(out, "  grid      {} x {} cells, dx = {:g} m, dz = {:g} m, domain {:g} m x {:g} m\n", grid.nx(),
             grid.nz(), grid.dx(), grid.dz(), grid.spec().xlen, grid.spec().zlen);
  fmt::print(out, "  time      sim_time = {:g} s, dt = {:.6g} s, {} steps", plan.sim_time(), plan.dt(),
             plan.num_steps());
  if (plan.dt_last() != plan.dt()) fmt::print(out, " (last step dt = {:.6g} s)", plan.dt_last());
  fmt::print(out, "\n");
  fmt::print(out, "  backend   {}: {}\n", to_string(simulation.backend()), device::processor_name(simulation.backend()));
  fmt::print(out, "  steps     mode {}, granularity {}, {} kernels per step, {} steps per graph\n",
             to_string(simulation.mode()), to_string(simulation.spec().execution.granularity),
             simulation.kernels_per_step(), simulation.steps_per_graph());
  std::fflush(out);
}

void print_progress(std::FILE* out, const ProgressReport& report) {
  fmt::print(out, "step {:>{}}/{}  t = {:10.3f} s  d_mass = {:+.3e}  d_te = {:+.3e}  wall {:8.2f} s  ETA {:8.2f} s\n",
             report.step, fmt::formatted_size("{}", report.num_steps), report.num_steps, report.time,
             report.change.mass, report.change.total_energy, report.wall_seconds, report.eta_seconds);
  std::fflush(out);
}

void print_result(std::FILE* out, const Simulation& simulation, const RunResult& result) {
  fmt::print(out, "d_mass: {:e}\n", result.change.mass);
  fmt::print(out, "d_te: {:e}\n", result.change.total_energy);
  const double per_step = result.steps > 0 ? result.wall_seconds / static_cast<double>(result.steps) : 0.0;
  const double cells = static_cast<double>(simulation.grid().nx()) * simulation.grid().nz();
  const ExecutorStats& stats = simulation.executor_stats();
  fmt::print(out, "timing: {} steps in {:.3f} s, {:.3f} ms/step, {} kernels/step, {:.3e} cell-steps/s\n",
             result.steps, result.wall_seconds, per_step * 1e3, simulation.kernels_per_step(),
             per_step > 0 ? cells / per_step : 0.0);
  if (simulation.mode() == ExecutionMode::graph) {
    fmt::print(out, "graphs: {} captured (nodes:", stats.captures);
    for (std::size_t nodes : stats.nodes_per_graph) fmt::print(out, " {}", nodes);
    fmt::print(out, "), capture {:.3f} ms, instantiate {:.3f} ms, {} graph launches\n", stats.capture_seconds * 1e3,
               stats.instantiate_seconds * 1e3, stats.launches);
  } else {
    fmt::print(out, "launches: {} ({:.2f} per step)\n", stats.launches,
               static_cast<double>(stats.launches) / static_cast<double>(std::max(1L, result.steps)));
  }
  std::fflush(out);
}

}  // namespace simapp::app
