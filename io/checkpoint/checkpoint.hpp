#pragma once
/// Checkpoints: the full prognostic state of the whole grid with its step, time and a hash of
/// the configuration that decides the physics, so a run can continue bit for bit, on any
/// rank count. File `checkpoint_<step>.h5` in the output directory:
///   /state  [4][nz][nx] doubles (dens, umom, wmom, rhot)
///   root attributes: step (int64), time (double, s), config_hash (uint64), nx, nz (int32),
///                    initial_mass, initial_total_energy (double: the run's t = 0 diagnostics,
///                    so a restarted run reports d_mass and d_te as the uninterrupted one),
///                    input_yaml (string)
/// Written under a temporary name, synced and renamed (io/hdf5/hdf5_file.hpp), then read back;
/// older checkpoints are removed only after that, so a crash never leaves the run without a
/// complete checkpoint.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "solver/grid/rank_box.hpp"
#include "solver/simulation/run_spec.hpp"

namespace simapp::io {

struct CheckpointHeader {
  long step = 0;
  double time = 0.0;
  std::uint64_t config_hash = 0;
  int nx = 0, nz = 0;
  double initial_mass = 0.0;          ///< kg per metre of y, at t = 0
  double initial_total_energy = 0.0;  ///< J per metre of y, at t = 0
};

/// FNV-1a hash of what a checkpoint's state depends on: the case and the grid.
std::uint64_t physics_hash(const RunSpec& spec);

/// The file name of the checkpoint at `step`.
std::filesystem::path checkpoint_path(const std::filesystem::path& directory, long step);

/// Writes the checkpoint of `global_state` [var][k][i] (rank 0's gathered state) and removes
/// older ones once it is complete. Throws an I/O Error on any failure (earlier checkpoints kept).
void write_checkpoint(const std::filesystem::path& directory, const CheckpointHeader& header,
                      const std::vector<double>& global_state, const std::string& input_yaml);

/// The newest checkpoint in `directory`; a bad-input Error when there is none.
std::filesystem::path latest_checkpoint(const std::filesystem::path& directory);

/// Reads a checkpoint's attributes; a bad-input Error when it cannot be read.
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path);

/// Reads the cells of `box` from the checkpoint: [var][k][i] over box.nz × box.nx.
std::vector<double> read_checkpoint_block(const std::filesystem::path& path, const RankBox& box);

}  // namespace simapp::io
