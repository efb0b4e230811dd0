#include "app/run_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "app/courant_warning.hpp"
#include "io/provenance/build_description.hpp"
#include "kernels/backend/gpu_topology.hpp"
#include "kernels/physics/variables.hpp"
#include "simapp_version.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/halo/halo_path.hpp"

namespace simapp::app {

namespace {

/// What sharing a GPU without MPS costs, as measured (docs/performance/journal/2026-12-01-mps.md).
constexpr const char* gpu_sharing_advice =
    "on an H200 four ranks of the default case stepped 11x faster under MPS (scripts/with_mps.sh) and one rank 100x "
    "faster (docs/performance.md)";

/// One rank's placement, as gathered for the header.
struct Placement {
  char host[64];
  char processor[96];
  char pci_bus_id[32];
  int device;     // -1 on the host backend
  int numa_node;  // of the GPU; -1 where the machine reports none
  bool mps;       // an MPS control daemon serves this rank
};

std::string describe_processor(const io::RankPlacement& placement) {
  if (placement.device < 0) return "CPU";
  std::string text = fmt::format("GPU {} ({}", placement.device, placement.pci_bus_id);
  if (placement.numa_node >= 0) text += fmt::format(", NUMA node {}", placement.numa_node);
  return text + ")";
}

/// When ranks share a GPU, says which and what it costs: without MPS the GPU runs one
/// process's kernels at a time, so the ranks' microsecond kernels take turns.
void print_gpu_sharing(io::RunLog& log, const std::vector<io::RankPlacement>& placements) {
  std::map<std::pair<std::string, int>, std::vector<int>> ranks_of_gpu;
  for (int r = 0; r < static_cast<int>(placements.size()); ++r)
    if (placements[r].device >= 0) ranks_of_gpu[{placements[r].host, placements[r].device}].push_back(r);
  const auto most = std::ranges::max_element(ranks_of_gpu, {}, [](const auto& gpu) { return gpu.second.size(); });
  if (most == ranks_of_gpu.end() || most->second.size() < 2) return;
  const bool mps = std::ranges::all_of(placements, [](const io::RankPlacement& p) { return p.mps; });
  log.print(fmt::format("  sharing   {} ranks on GPU {} of {} (ranks {}); {}", most->second.size(), most->first.second,
                        most->first.first, fmt::join(most->second, ", "),
                        mps ? "an MPS daemon runs their kernels side by side"
                            : fmt::format("no MPS daemon, so their kernels take turns: {}", gpu_sharing_advice)));
}

/// The coefficients of physical diffusion: ν of the velocities, κ of θ and the tracers.
enum class Diffusion { viscosity, diffusivity };

/// What `coefficient` diffuses in the run of `grid`: "u, w" (physics.viscosity: the velocities),
/// "theta, smoke" (physics.diffusivity: θ and the tracers).
std::string diffused_quantities(const GridSpec& grid, Diffusion coefficient) {
  const auto diffused_by = [](const VariableInfo& variable) {
    return variable.kind == VariableKind::momentum ? Diffusion::viscosity : Diffusion::diffusivity;
  };
  std::vector<std::string> quantities;
  for (const VariableInfo& variable : model_variables_of_grid(grid.ny))
    if (*variable.diffused_as != '\0' && diffused_by(variable) == coefficient)
      quantities.emplace_back(variable.diffused_as);
  if (coefficient == Diffusion::diffusivity)
    for (const std::string& tracer : state_tracers(grid)) quantities.push_back(tracer);
  return fmt::format("{}", fmt::join(quantities, ", "));
}

/// "nu = 75 m^2/s on u, w" for the run's coefficient `coefficient` of `value` m² s⁻¹; "off" for 0.
std::string describe_diffusion(const GridSpec& grid, Diffusion coefficient, double value) {
  if (value == 0.0) return "off";
  return fmt::format("{} = {:g} m^2/s on {}", coefficient == Diffusion::viscosity ? "nu" : "kappa", value,
                     diffused_quantities(grid, coefficient));
}

}  // namespace

std::vector<io::RankPlacement> gather_placements(const Simulation& simulation) {
  Placement mine{};
  gethostname(mine.host, sizeof mine.host - 1);
  std::snprintf(mine.processor, sizeof mine.processor, "%s", device::processor_name(simulation.backend()).c_str());
  mine.device = simulation.backend() == Backend::cuda ? device::current_device() : -1;
  mine.numa_node = -1;
  if (mine.device >= 0) {
    const std::string bus_id = device::pci_bus_id(mine.device);
    std::snprintf(mine.pci_bus_id, sizeof mine.pci_bus_id, "%s", bus_id.c_str());
    mine.numa_node = device::numa_node_of_pci_device(bus_id);
    mine.mps = !device::mps_control_pipe().empty();
  }
  const Decomposition& decomposition = simulation.decomposition();
  std::vector<Placement> all(decomposition.rank() == 0 ? decomposition.size() : 0);
  MPI_Gather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, 0, decomposition.comm());
  std::vector<io::RankPlacement> placements;
  for (const Placement& p : all)
    placements.push_back({p.host, p.processor, p.device, p.device >= 0 ? p.pci_bus_id : "", p.numa_node, p.mps});
  return placements;
}

std::string describe_grid(const Grid& grid) {
  const GridSpec& g = grid.spec();
  if (g.ny > 1)
    return fmt::format(
        "{} x {} x {} cells (x, y, z), dx = {:g} m, dy = {:g} m, dz = {:g} m, domain {:g} m x {:g} m x "
        "{:g} m",
        g.nx, g.ny, g.nz, grid.dx(), grid.dy(), grid.dz(), g.xlen, g.ylen, g.zlen);
  return fmt::format("{} x {} cells, dx = {:g} m, dz = {:g} m, domain {:g} m x {:g} m", g.nx, g.nz, grid.dx(),
                     grid.dz(), g.xlen, g.zlen);
}

std::string describe_time_stepping(const TimeStepping& stepping, const RunSpec& spec) {
  const double dx = horizontal_spacing(spec.grid), dz = spec.grid.zlen / spec.grid.nz;
  const Dissipation& physics = spec.physics;
  const double diffusion = physics.largest_coefficient();
  const bool diffusive = diffusion_limits_time_step(dx, dz, spec.time.cfl, diffusion);
  std::string text = fmt::format(
      "sim_time = {:g} s, dt = {:.6g} s ({}), {} steps", stepping.sim_time(), stepping.dt(),
      diffusive
          ? fmt::format("diffusion: {:g} min({})^2 / {}", diffusion_number, spec.grid.ny > 1 ? "dx, dy, dz" : "dx, dz",
                        physics.diffusivity > physics.viscosity ? "kappa" : "nu")
          : fmt::format("cfl {:g}{}", spec.time.cfl, diffusion > 0 ? ", below the diffusive bound" : ""),
      stepping.num_steps());
  if (stepping.dt_last() != stepping.dt()) text += fmt::format(" (last step dt = {:.6g} s)", stepping.dt_last());
  return text;
}

std::string describe_ranks(const Decomposition& decomposition, HaloPath path, Backend backend,
                           const std::string& halo_reason) {
  const bool three_d = decomposition.global().ny > 1;
  return fmt::format(
      "{} as {} ({}){}", decomposition.size(),
      three_d ? fmt::format("{} x {} x {}", decomposition.px(), decomposition.py(), decomposition.pz())
              : fmt::format("{} x {}", decomposition.px(), decomposition.pz()),
      three_d ? "x and y periodic, z walls" : "x periodic, z walls",
      decomposition.size() == 1 ? std::string() : fmt::format(", {} ({})", describe(path, backend), halo_reason));
}

void print_header(io::RunLog& log, const Simulation& simulation, const std::vector<io::RankPlacement>& placements,
                  const std::string& config_path, const std::string& halo_reason, const std::string& granularity,
                  const std::string& mode) {
  const Decomposition& decomposition = simulation.decomposition();
  if (decomposition.rank() != 0) return;
  const RunSpec& spec = simulation.spec();
  log.print(fmt::format("simapp {} (git {}): compressible atmosphere, dry or with warm rain", build_info::version,
                        build_info::git_hash));
  const io::BuildDescription build = io::this_build();
  log.print("  build     " + io::describe_compilation(build));
  log.print("  libraries " + io::describe_libraries(build));
  log.print(fmt::format("  config    {}", config_path));
  log.print(fmt::format("  case      {}", to_string(spec.case_name)));
  log.print("  grid      " + describe_grid(simulation.grid()));
  log.print("  time      " + describe_time_stepping(simulation.time_stepping(), spec));
  if (const auto warning = courant_warning(spec, simulation.time_stepping())) log.print("  warning   " + *warning);
  log.print(fmt::format(
      "  physics   viscosity {}; diffusivity {}{}; hyperviscosity beta = {:g}",
      describe_diffusion(spec.grid, Diffusion::viscosity, spec.physics.viscosity),
      describe_diffusion(spec.grid, Diffusion::diffusivity, spec.physics.diffusivity),
      spec.physics.theta_diffuses_from_initial_state() ? " (theta along z: its departure from the initial state)" : "",
      spec.physics.hyperviscosity));
  log.print(fmt::format("  backend   {}: {}", to_string(simulation.backend()), placements[0].processor));
  log.print("  ranks     " + describe_ranks(decomposition, simulation.halo_path(), simulation.backend(), halo_reason));
  const bool show_placement = decomposition.size() > 1 || simulation.backend() == Backend::cuda;
  for (int r = 0; r < decomposition.size() && show_placement; ++r) {
    const RankBox box = decomposition.box_of(r);
    const std::string y_range =
        decomposition.global().ny > 1 ? fmt::format(" x [{}, {})", box.j_offset, box.j_offset + box.ny) : std::string();
    log.print(fmt::format("    rank {:>3} -> {} -> {}  cells [{}, {}){} x [{}, {})", r, placements[r].host,
                          describe_processor(placements[r]), box.i_offset, box.i_offset + box.nx, y_range, box.k_offset,
                          box.k_offset + box.nz));
  }
  print_gpu_sharing(log, placements);
  const OutputSpec& output = spec.output;
  if (output.every > 0 || output.checkpoint_every > 0 || output.stats_every > 0)
    log.print(fmt::format(
        "  output    {}: snapshots {}, checkpoints {}, statistics {}", output.dir,
        output.every > 0 ? fmt::format("every {:g} s ({})", output.every, fmt::join(output.variables, ","))
                         : std::string("off"),
        output.checkpoint_every > 0 ? fmt::format("every {:g} s", output.checkpoint_every) : std::string("off"),
        output.stats_every > 0 ? fmt::format("every {:g} s (stats.nc)", output.stats_every) : std::string("off")));
  if (spec.execution.precision != Precision::float64)
    log.print(
        fmt::format("  precision {}: the state, its fluxes and the tiles (time, dt, the background, the "
                    "microphysics and the global sums in double)",
                    to_string(spec.execution.precision)));
  if (const double limit = spec.execution.wall_limit; limit > 0)
    log.print(
        fmt::format("  limit     wall clock {:g} s from the start: the run stops with a checkpoint before it", limit));
  if (const LaunchDescription launch = simulation.launch_description(); !launch.summary.empty()) {
    log.print(fmt::format("  steps     mode {}, granularity {}: {}", mode, granularity, launch.summary));
  } else {
    log.print(fmt::format("  steps     mode {}, granularity {}, {} kernels per step, {} steps per graph", mode,
                          granularity, simulation.kernels_per_step(), simulation.steps_per_graph()));
  }
}

io::TracerChanges tracer_changes(const GridSpec& grid, const DiagnosticsChange& change) {
  const std::vector<std::string> tracers = state_tracers(grid);
  io::TracerChanges named;
  for (std::size_t t = grid.microphysics != Microphysics::none ? water_tracer_names.size() : 0;
       t < tracers.size() && t < change.tracer_mass.size(); ++t)
    named.emplace_back(tracers[t], change.tracer_mass[t]);
  return named;
}

void print_progress(io::RunLog& log, const ProgressReport& report, const GridSpec& grid) {
  std::string water_and_tracers;
  if (const std::optional<WaterChange>& water = report.change.water)
    water_and_tracers += fmt::format("  d_water = {:+.3e}  clipped = {:.3e} kg", water->water, water->clipped);
  for (const auto& [name, change] : tracer_changes(grid, report.change))
    water_and_tracers += fmt::format("  d_mass_{} = {:+.3e}", name, change);
  log.print(fmt::format(
      "step {:>{}}/{}  t = {:10.3f} s  d_mass = {:+.3e}  d_te = {:+.3e}{}  wall {:8.2f} s  ETA {:8.2f} s", report.step,
      fmt::formatted_size("{}", report.num_steps), report.num_steps, report.time, report.change.mass,
      report.change.total_energy, water_and_tracers, report.wall_seconds, report.eta_seconds));
}

io::RunTimings reduce_timings(const Simulation& simulation, const RunResult& result) {
  const MPI_Comm comm = simulation.decomposition().comm();
  io::RunTimings timings{
      result.steps,          result.wall_seconds,          result.wall_seconds,          result.wall_seconds,
      result.output_seconds, result.output_thread_seconds, result.output_waited_seconds, result.outputs_written};
  double wall_sum = result.wall_seconds;
  MPI_Reduce(&result.wall_seconds, &timings.wall_min_seconds, 1, MPI_DOUBLE, MPI_MIN, 0, comm);
  MPI_Reduce(&result.wall_seconds, &timings.wall_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(&result.wall_seconds, &wall_sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  MPI_Reduce(&result.output_seconds, &timings.output_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(&result.output_thread_seconds, &timings.output_thread_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(&result.output_waited_seconds, &timings.output_waited_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  timings.wall_avg_seconds = wall_sum / simulation.decomposition().size();
  return timings;
}

void print_result(io::RunLog& log, const Simulation& simulation, const RunResult& result,
                  const io::RunTimings& timings) {
  const Decomposition& decomposition = simulation.decomposition();
  if (decomposition.rank() != 0) return;
  const double wall_max = timings.wall_seconds, output_max = timings.output_seconds;
  const double thread_max = timings.output_thread_seconds, waited_max = timings.output_waited_seconds;
  log.print(fmt::format("d_mass: {:e}", result.change.mass));
  log.print(fmt::format("d_te: {:e}", result.change.total_energy));
  if (const std::optional<WaterChange>& water = result.change.water) {
    log.print(fmt::format("d_water: {:e}", water->water));
    log.print(fmt::format("clipped_water: {:e} kg", water->clipped));
  }
  for (const auto& [name, change] : tracer_changes(simulation.spec().grid, result.change))
    log.print(fmt::format("d_mass_{}: {:e}", name, change));
  const double per_step = result.steps > 0 ? wall_max / static_cast<double>(result.steps) : 0.0;
  const auto cells = static_cast<double>(cell_count(decomposition.global()));
  const ExecutorStats& stats = simulation.executor_stats();
  if (decomposition.size() > 1)
    log.print(fmt::format("ranks: stepping wall time min {:.3f} s, avg {:.3f} s, max {:.3f} s over {} ranks",
                          timings.wall_min_seconds, timings.wall_avg_seconds, wall_max, decomposition.size()));
  log.print(fmt::format("timing: {} steps in {:.3f} s, {:.3f} ms/step, {} kernels/step, {:.3e} cell-steps/s",
                        result.steps, wall_max, per_step * 1e3, simulation.kernels_per_step(),
                        per_step > 0 ? cells / per_step : 0.0));
  if (result.outputs_written > 0) {
    // The wall time split three ways: stepping; output the host spent instead of queueing steps
    // (waiting for writer threads included); and writer-thread time beside the steps.
    log.print(fmt::format(
        "output: {} files: {:.3f} s blocking the steps{}{}; stepping {:.3f} ms/step", result.outputs_written,
        output_max, thread_max > 0.0 ? fmt::format(" ({:.3f} s of it waiting for the writer thread)", waited_max) : "",
        thread_max > 0.0
            ? fmt::format(", {:.3f} s on the writer thread beside them", std::max(0.0, thread_max - waited_max))
            : "",
        result.steps > 0 ? std::max(0.0, wall_max - output_max) / static_cast<double>(result.steps) * 1e3 : 0.0));
  }
  if (stats.captures > 0) {
    const auto [fewest, most] = std::ranges::minmax(stats.nodes_per_graph);
    log.print(fmt::format(
        "graphs: {} captured and {} instantiated before stepping ({} to {} nodes), {} captured while stepping, "
        "capture {:.3f} ms, instantiate {:.3f} ms, {} graph launches, {} host ops",
        result.prepared.captures, result.prepared.instantiations, fewest, most,
        stats.captures - result.prepared.captures, stats.capture_seconds * 1e3, stats.instantiate_seconds * 1e3,
        stats.launches, stats.host_ops));
  } else {
    log.print(fmt::format("launches: {} ({:.2f} per step), {} host ops", stats.launches,
                          static_cast<double>(stats.launches) / static_cast<double>(std::max(1L, result.steps)),
                          stats.host_ops));
  }
}

}  // namespace simapp::app
