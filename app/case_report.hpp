#pragma once
/// What a case is measured by at the end of a run, where it declares such measures (its
/// `measures`, kernels/cases/): the density current (case straka) prints its front position and
/// extremes and writes diagnostics.json into output.dir.
#include "io/config/load_config.hpp"
#include "io/output/run_log.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::app {

/// Collective: the final state's case measures, printed by rank 0 and, when the run writes
/// results, written to output.dir/diagnostics.json. Nothing for a case without measures.
void report_case_measures(io::RunLog& log, const io::LoadedConfig& config, const Simulation& simulation);

}  // namespace simapp::app
