#pragma once
/// Checkpoints: the full prognostic state of the whole grid with its step, time and a hash of
/// the configuration that decides the physics, so a run can continue bit for bit, on any
/// rank count. File `checkpoint_<step>.h5` in the output directory (checkpoint format 2):
///   /state  [4][nz][nx] 64-bit IEEE floats (dens, umom, wmom, rhot), chunked
///           [1][rows][nx] (rows: all of nz, or as many as keep a chunk under 64 MiB), each
///           chunk with HDF5's Fletcher-32 checksum, so damaged data fails to read
///   root attributes: format_version (int32, 2), step (int64), time (double, s),
///                    config_hash (uint64), case (string), nx, nz (int32), xlen, zlen (double, m),
///                    initial_mass, initial_total_energy (double: the run's t = 0 diagnostics,
///                    so a restarted run reports d_mass and d_te as the uninterrupted one),
///                    header_checksum (uint64: FNV-1a of the attributes above, exactly),
///                    input_yaml (string: the configuration, for people; not read back)
/// Written under a temporary name, synced and renamed (io/hdf5/hdf5_file.hpp), then read back;
/// older checkpoints are removed only after that, so a crash never leaves the run without a
/// complete checkpoint. Reading verifies every type, shape and checksum and refuses values
/// that are not finite; a checkpoint of the format before (no checksums) is refused.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "solver/grid/rank_box.hpp"
#include "solver/simulation/run_spec.hpp"
#include "solver/time/time_plan.hpp"

namespace simapp::io {

struct CheckpointHeader {
  long step = 0;
  double time = 0.0;
  std::uint64_t config_hash = 0;
  int nx = 0, nz = 0;
  double initial_mass = 0.0;          ///< kg per metre of y, at t = 0
  double initial_total_energy = 0.0;  ///< J per metre of y, at t = 0
  /// The configuration's case and domain (m).
  std::string case_name{};
  double xlen = 0.0, zlen = 0.0;
};

/// FNV-1a hash of what a checkpoint's state depends on: the case and the grid.
std::uint64_t physics_hash(const RunSpec& spec);

/// The file name of the checkpoint at `step`.
std::filesystem::path checkpoint_path(const std::filesystem::path& directory, long step);

/// Writes the checkpoint of `global_state` [var][k][i] (rank 0's gathered state), reads it
/// back, then removes the other checkpoints in `directory`: only regular files (no links,
/// pipes or directories) named checkpoint_<step>.h5 that is_simapp_checkpoint() recognizes.
/// A state or t = 0 diagnostics that are not finite are not written (a numerical Error naming
/// the first such value; earlier checkpoints kept). Throws an I/O Error on any other failure
/// (earlier checkpoints kept); an internal Error when the header's case, grid and domain do not
/// give its config_hash.
void write_checkpoint(const std::filesystem::path& directory, const CheckpointHeader& header,
                      const std::vector<double>& global_state, const std::string& input_yaml);

/// Whether `path` is a regular file (not a symbolic link) holding an HDF5 file with simapp's
/// checkpoint attributes config_hash and input_yaml, of any checkpoint format. Never throws,
/// never opens anything but a regular file.
bool is_simapp_checkpoint(const std::filesystem::path& path);

/// The newest checkpoint in `directory`: of the regular files (or links to one) named
/// checkpoint_<step>.h5, the one with the largest step; names whose step does not fit a long
/// are not checkpoints. None when there is none.
std::optional<std::filesystem::path> latest_checkpoint(const std::filesystem::path& directory);

/// Reads and verifies a checkpoint's attributes: a bad-input Error naming the file and the
/// problem when it is not a regular file (never opened then), not a simapp checkpoint, of the
/// older format, has an attribute of another type, a value that is not finite (or a count that
/// is not positive), or attributes that fail their checksum.
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path);

/// Reads the cells of `box` from the checkpoint: [var][k][i] over box.nz × box.nx. A bad-input
/// Error when the header does not verify, /state is not 64-bit IEEE floats of shape
/// [4][nz][nx] with checksums, the chunks read fail their checksum, or a value read is not
/// finite (naming the variable and the global cell (i, k) of the first).
std::vector<double> read_checkpoint_block(const std::filesystem::path& path, const RankBox& box);

/// Refuses (a bad-input Error naming what differs) a checkpoint a run of `spec` with `plan`
/// cannot continue: another case, grid, domain or config hash, or a time at or past the plan's
/// sim_time that is not the plan's last step (a finished run is its last step).
void check_restart_compatible(const std::filesystem::path& path, const CheckpointHeader& header, const RunSpec& spec,
                              const TimePlan& plan);

/// Where a run continuing from `header` starts its steps: at 0, when the checkpoint's step and
/// time are the plan's (the continuation is bit-identical to a run without the restart); else
/// (a longer sim_time after a shortened last step, say) at the checkpoint's step and time.
TimeOrigin restart_origin(const CheckpointHeader& header, const TimePlan& plan);

}  // namespace simapp::io
