#pragma once
/// What a run prints: the header, progress lines, and the closing lines
///   d_mass: <%e>
///   d_te: <%e>
/// followed by the timing summary.
#include <cstdio>

#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::app {

/// Collective (gathers where each rank runs); rank 0 prints.
/// `halo_reason`: why the halos travel as they do (parallel.halo: auto made concrete).
void print_header(std::FILE* out, const Simulation& simulation, const std::string& config_path,
                  const std::string& halo_reason);
void print_progress(std::FILE* out, const ProgressReport& report);
/// Collective (gathers the ranks' timings); rank 0 prints.
void print_result(std::FILE* out, const Simulation& simulation, const RunResult& result);

}  // namespace simapp::app
