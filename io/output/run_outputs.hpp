#pragma once
/// What a run writes besides its console lines: snapshots with their XDMF index (or a snapshot
/// series, output.layout: series), and checkpoints; where it starts in its output directory; and the checks that keep
/// results from being lost: nothing is removed before the run is known to start, only files simapp wrote are ever
/// removed, and every I/O failure becomes the same Error on every rank.
#include <mpi.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/config/load_config.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "io/output/result_files.hpp"
#include "solver/simulation/run_loop.hpp"

namespace simapp::io {

/// A line for the run's log saying what file was written (rank 0's are printed).
using WrittenNote = std::function<void(const std::string& line)>;

/// What the writers tell the run as they go, and what they ask of it.
struct OutputHooks {
  /// Told of each snapshot and checkpoint written, on every rank.
  WrittenNote written;
  /// Called on every rank (it may be collective) before a checkpoint is written: what must reach
  /// the disk with it (the statistics so far, which a restart from it continues).
  std::function<void()> before_checkpoint;
};

/// A snapshot of the whole grid without its state: grid, texts and the background rows.
Snapshot whole_grid_snapshot(const LoadedConfig& config);

/// The time stepping of a run of `spec` whose steps start at `origin`.
TimeStepping run_time_stepping(const RunSpec& spec, TimeOrigin origin = {});

/// Whether a run of `spec` writes results (snapshots or checkpoints) into output.dir.
bool writes_results(const RunSpec& spec);

/// What a run may do with results an earlier run left in output.dir.
enum class ExistingResults { refuse, replace, continue_run };

/// Where a run starts, decided before any work.
struct OutputStart {
  std::optional<std::filesystem::path> checkpoint;  ///< the checkpoint a restart continues from
  long step = 0;                                    ///< the step the run continues after (the checkpoint's)
  bool finished = false;                            ///< the checkpoint is the run's last step: nothing is left to do
  std::vector<ResultEntry> replaced;                ///< rank 0: results the run replaces, all written by simapp
  TimeOrigin origin;  ///< where the steps start: 0, or a checkpoint off the run's step grid
};

/// Before any work (collective; errors are bad input, agreed): for a restart, the checkpoint
/// it continues from (`restart` is a path, or "latest": the newest in output.dir; when there
/// is none the run starts at step 0), refusing one of another configuration or off this run's
/// steps; output.dir created and probed for the longest name the run writes; and the results
/// there that the run replaces: with --overwrite all, on a restart those after its
/// checkpoint's step. Refuses results the run may not replace, and any file named like a
/// result that simapp did not write among those it would replace. Removes nothing.
OutputStart plan_output(const RunSpec& spec, ExistingResults policy, const std::string& restart, MPI_Comm comm);

/// What plan_output, and taking output.dir over before it, check, made without creating or
/// removing anything (--validate; collective; errors are bad input, agreed): the directory as
/// check_output_directory() sees it, a restart's checkpoint, and the results there the run
/// would replace.
void check_output_plan(const RunSpec& spec, ExistingResults policy, const std::string& restart, MPI_Comm comm);

/// What --validate --restart checks and says (collective; errors are bad input, agreed): the
/// checkpoint a restart would continue from, as the run would choose and check it, every rank
/// reading and verifying its block; the line describes where the restart would start.
std::string check_restart(const RunSpec& spec, const std::string& restart, const Decomposition& decomposition);

/// Once the run is known to start (collective): removes the results it replaces and what
/// interrupted runs left unfinished.
void take_over_output(const RunSpec& spec, const OutputStart& start, MPI_Comm comm);

/// Continues `simulation` from the start's checkpoint (collective); returns the original run's
/// t = 0 diagnostics, which the checkpoint carries.
Diagnostics restore_checkpoint(Simulation& simulation, const OutputStart& start);

/// The snapshot and checkpoint writers for the steps after the simulation's current one;
/// checkpoints record `reference`, the run's t = 0 diagnostics.
std::vector<ScheduledOutput> make_outputs(const LoadedConfig& config, const Simulation& simulation,
                                          const Diagnostics& reference, const OutputHooks& hooks = {});

/// Writes the state where a failed health check stopped the run as fields_<step>_failed.nc (a
/// snapshot outside the XDMF index), when the run writes results at all.
FailedStateWriter failed_state_writer(const LoadedConfig& config, const Simulation& simulation);

/// Writes a checkpoint of the state it is given unless one of that step is there already
/// (collective): what a run that is asked to stop saves.
std::function<void(long step, double time, std::span<const double> interior)> checkpoint_saver(
    const LoadedConfig& config, const Simulation& simulation, const Diagnostics& reference,
    const OutputHooks& hooks = {});

}  // namespace simapp::io
