#pragma once
/// What a run prints: the header, progress lines, and the closing lines
///   d_mass: <%e>
///   d_te: <%e>
///   d_water: <%e>             (a run with water: d_mass is then the dry air's)
///   clipped_water: <%e> kg    (likewise; kg per metre of y in the 2-D model)
///   d_mass_<tracer>: <%e>   (one a tracer of physics.tracers)
/// followed by the timing summary.
/// Printed through the run's log (io/output/run_log.hpp), which keeps them in output.dir too.
#include <string>
#include <vector>

#include "io/output/run_log.hpp"
#include "io/output/run_summary.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp::app {

/// Where each rank runs (collective; the list on rank 0, empty on the others).
std::vector<io::RankPlacement> gather_placements(const Simulation& simulation);

/// `sim_time = 1000 s, dt = 1.66667 s (cfl 1.5), 600 steps`: the header's time line, after its label.
std::string describe_time_stepping(const TimeStepping& stepping, const RunSpec& spec);
/// "400 x 200 cells, dx = 50 m, dz = 50 m, domain 20000 m x 10000 m" (with y in the 3-D model).
std::string describe_grid(const Grid& grid);

/// `2 as 2 x 1 (x periodic, z walls), halos by MPI from host memory (auto: the host backend)`: the
/// header's ranks line, after its label; `halo_reason` says why the halos take `path`.
std::string describe_ranks(const Decomposition& decomposition, HaloPath path, Backend backend,
                           const std::string& halo_reason);

/// Rank 0 prints, with `placements` as gathered. `halo_reason`: why the halos travel as they do
/// (parallel.halo: auto made concrete); `granularity` and `mode`: the run's as the reports name them.
void print_header(io::RunLog& log, const Simulation& simulation, const std::vector<io::RankPlacement>& placements,
                  const std::string& config_path, const std::string& halo_reason, const std::string& granularity,
                  const std::string& mode);
/// The relative mass change of each tracer of physics.tracers of `grid` in `change`, by name (the
/// water's tracers are reported as d_water).
io::TracerChanges tracer_changes(const GridSpec& grid, const DiagnosticsChange& change);
/// The progress line, with `d_water = …  clipped = … kg` after d_te in a run with water, then
/// `d_mass_<name> = …` for each tracer of physics.tracers of `grid`.
void print_progress(io::RunLog& log, const ProgressReport& report, const GridSpec& grid);

/// The ranks' timings of `result` (collective; the job's on rank 0).
io::RunTimings reduce_timings(const Simulation& simulation, const RunResult& result);
/// Rank 0 prints, with the ranks' `timings`.
void print_result(io::RunLog& log, const Simulation& simulation, const RunResult& result,
                  const io::RunTimings& timings);

}  // namespace simapp::app
