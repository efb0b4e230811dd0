#pragma once
/// What --validate prints: its first line, `FILE: configuration is valid` (with where a restart
/// would continue from), which scripts match, then indented lines of what the run would be and
/// take: dt and steps, the ranks and backend, the mode and granularity, the grid's memory a rank
/// and in all against what rank 0's processor has, and the disk its results take against the
/// free space of the file system output.dir is on.
#include <cstdio>
#include <string>

#include "app/command_line.hpp"
#include "app/setup.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp::app {

/// What the run's results take on the disk at most (bytes, and the counts they come from).
struct DiskUse {
  long snapshots = 0;             ///< at most (OutputSchedule::count_after)
  std::size_t fields = 0;         ///< a snapshot's
  double snapshot_bytes = 0.0;    ///< each: fields × cells × 8 B
  long checkpoints = 0;           ///< written, at most two of which are on the disk at once
  double checkpoint_bytes = 0.0;  ///< each: the state's variables × cells × 8 B
  long statistics_rows = 0;       ///< of stats.nc
  double statistics_bytes = 0.0;  ///< stats.nc at its largest, with its next version beside it
  double most = 0.0;              ///< every snapshot (a series' twice), two checkpoints and stats.nc
};

/// The results a run of `spec` writes (none without output.every, output.checkpoint_every and
/// output.stats_every);
/// `continued`: run with --restart (which ends with a checkpoint).
DiskUse disk_use(const RunSpec& spec, bool continued);

/// What the command would check of output.dir before it starts, checked without creating or
/// removing anything (collective; errors are bad input, agreed): a run's (io::check_output_plan),
/// or for --mode compare the directory and that timing.json may be written there.
void check_output_dir(const Setup& setup, const CommandLine& command_line, const Decomposition& decomposition);

/// Rank 0 prints; `restart`: "" or what --validate --restart found ("; a restart continues …").
void print_validation(std::FILE* out, const std::string& config_path, const Setup& setup,
                      const Decomposition& decomposition, const MemoryUse& memory, const std::string& restart);

}  // namespace simapp::app
