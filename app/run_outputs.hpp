#pragma once
/// What a run writes besides its console lines: snapshots with their XDMF index, and
/// checkpoints, all by rank 0 from the gathered state; and the checks that keep earlier
/// results from being lost. Every I/O failure becomes the same Error on every rank.
#include <mpi.h>

#include <string>
#include <vector>

#include "io/config/load_config.hpp"
#include "solver/simulation/run_loop.hpp"

namespace simapp::app {

/// What a run may do with results an earlier run left in output.dir.
enum class ExistingResults { refuse, replace, continue_run };

/// Before any work (collective): refuses an output.dir holding snapshots or checkpoints unless
/// replacing them (they are deleted) or continuing a run; creates the directory and checks it
/// can be written. Bad input on every rank alike.
void prepare_output_directory(const RunSpec& spec, ExistingResults policy, MPI_Comm comm);

/// The snapshot and checkpoint writers for the steps after the simulation's current one;
/// checkpoints record `reference`, the run's t = 0 diagnostics.
std::vector<ScheduledOutput> make_outputs(const io::LoadedConfig& config, const Simulation& simulation,
                                          const Diagnostics& reference);

/// A run continued from a checkpoint.
struct Restart {
  std::string path;
  Diagnostics reference;  ///< the original run's t = 0 diagnostics
};

/// Continues `simulation` from the checkpoint `which` (a path, or "latest" in output.dir)
/// after every rank has verified it (collective): a damaged or foreign file, or one written by
/// an incompatible configuration, is refused with a bad-input UniformError, alike on every rank.
Restart restart_from(Simulation& simulation, const RunSpec& spec, const std::string& which);

}  // namespace simapp::app
