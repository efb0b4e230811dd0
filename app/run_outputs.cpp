#include "app/run_outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include <fmt/core.h>

#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "io/xdmf/xdmf_writer.hpp"
#include "kernels/backend/error.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "simapp_version.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/output/output_schedule.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp::app {

namespace fs = std::filesystem;

namespace {

/// Runs `action` on rank 0; an Error there is rethrown on every rank (collective).
template <class Action>
void on_root_for_all(MPI_Comm comm, Action action) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int code = 0;
  std::string message;  // "where\nwhat"
  if (rank == 0) {
    try {
      action();
    } catch (const Error& e) {
      code = static_cast<int>(e.code());
      message = e.where() + "\n" + e.what();
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, comm);
  if (code == 0) return;
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
  const auto newline = message.find('\n');
  throw Error(static_cast<ExitCode>(code), message.substr(0, newline), message.substr(newline + 1));
}

bool is_result_file(const fs::path& path) {
  static const std::regex pattern(R"((fields_\d+\.h5|fields\.xmf|checkpoint_\d+\.h5)(\.tmp)?)");
  return std::regex_match(path.filename().string(), pattern);
}

std::vector<fs::path> result_files(const fs::path& directory) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error))
    if (entry.is_regular_file() && is_result_file(entry.path())) files.push_back(entry.path());
  std::ranges::sort(files);
  return files;
}

fs::path snapshot_path(const fs::path& directory, long step) { return directory / fmt::format("fields_{:06}.h5", step); }

/// Writes a snapshot at each due step and rewrites fields.xmf to index every one so far.
/// With a parallel HDF5 and several ranks, ranks write their blocks collectively; otherwise
/// rank 0 gathers the grid and writes it.
class SnapshotSeries {
 public:
  SnapshotSeries(const io::LoadedConfig& config, const Simulation& simulation)
      : config_(config),
        decomposition_(simulation.decomposition()),
        directory_(config.spec.output.dir),
        fields_(config.spec.output.variables),
        comm_(decomposition_.comm()),
        collective_(io::parallel_hdf5_available() && decomposition_.size() > 1) {
    const GridSpec& grid = config.spec.grid;
    const Stream host{Backend::host, nullptr, nullptr};
    const CellGeometry geometry{grid.xlen / grid.nx, grid.zlen / grid.nz, grid.xlen, grid.zlen, grid.nx, grid.nz, 0, 0};
    const HydrostaticColumns columns =
        HydrostaticProfile(host, case_background(config.spec.case_name), geometry, grid.nz).to_host(host);
    const auto interior = [&](const std::vector<double>& padded) {
      return std::vector<double>(padded.begin() + numerics::halo_width, padded.end() - numerics::halo_width);
    };
    density_cell_ = interior(columns.density_cell);
    rho_theta_cell_ = interior(columns.rho_theta_cell);
    // Snapshots an interrupted run already wrote stay in the index.
    for (long step : output_steps(simulation.time_plan(), config.spec.output.every, true))
      if (step <= simulation.step() && fs::exists(snapshot_path(directory_, step)))
        entries_.push_back({snapshot_path(directory_, step).filename().string(), simulation.time_plan().time_after(step)});
  }

  void write(long step, double time, const std::vector<double>& interior) {
    const GridSpec& grid = config_.spec.grid;
    const fs::path path = snapshot_path(directory_, step);
    io::Snapshot snapshot{step, time, grid.nx, grid.nz, grid.xlen / grid.nx, grid.zlen / grid.nz,
                          std::string(to_string(config_.spec.case_name)), config_.resolved_yaml,
                          build_info::version, build_info::git_hash, {}, density_cell_, rho_theta_cell_};
    if (collective_) {
      const RankBox box = decomposition_.box();
      io::Snapshot block = snapshot;
      block.nx = box.nx;
      block.nz = box.nz;
      block.state = interior;
      block.density_cell.assign(density_cell_.begin() + box.k_offset, density_cell_.begin() + box.k_offset + box.nz);
      block.rho_theta_cell.assign(rho_theta_cell_.begin() + box.k_offset,
                                  rho_theta_cell_.begin() + box.k_offset + box.nz);
      io::write_snapshot_collective(path, snapshot, block, box.i_offset, box.k_offset, fields_,
                                    config_.spec.output.compression, comm_);
    } else {
      snapshot.state = gather_interior(decomposition_, interior);
      on_root_for_all(comm_, [&] { io::write_snapshot(path, snapshot, fields_, config_.spec.output.compression); });
    }
    entries_.push_back({path.filename().string(), time});
    on_root_for_all(comm_, [&] { io::write_xdmf(directory_ / "fields.xmf", grid.nx, grid.nz, fields_, entries_); });
  }

 private:
  const io::LoadedConfig& config_;
  const Decomposition& decomposition_;
  fs::path directory_;
  std::vector<std::string> fields_;
  MPI_Comm comm_;
  bool collective_;
  std::vector<double> density_cell_, rho_theta_cell_;
  std::vector<io::XdmfEntry> entries_;
};

/// Keeps only the steps after `step`.
std::vector<long> after(std::vector<long> steps, long step) {
  std::erase_if(steps, [step](long s) { return s <= step; });
  return steps;
}

}  // namespace

void prepare_output_directory(const RunSpec& spec, ExistingResults policy, MPI_Comm comm) {
  if (spec.output.every <= 0.0 && spec.output.checkpoint_every <= 0.0) return;
  on_root_for_all(comm, [&] {
    const fs::path directory(spec.output.dir);
    const std::vector<fs::path> earlier = result_files(directory);
    if (!earlier.empty() && policy == ExistingResults::refuse)
      throw Error(ExitCode::bad_input, "output.dir",
                  fmt::format("'{}' holds results of an earlier run ({}{}); pass --overwrite to replace them or "
                              "--restart latest to continue it",
                              directory.string(), earlier.front().filename().string(), earlier.size() > 1 ? ", ..." : ""));
    std::error_code error;
    if (policy == ExistingResults::replace)
      for (const fs::path& file : earlier) fs::remove(file, error);
    fs::create_directories(directory, error);
    const fs::path probe = directory / ".simapp_write_test";
    std::ofstream(probe) << "simapp\n";
    if (error || !fs::exists(probe))
      throw Error(ExitCode::bad_input, "output.dir", fmt::format("cannot write to '{}'", directory.string()));
    fs::remove(probe, error);
  });
}

std::vector<ScheduledOutput> make_outputs(const io::LoadedConfig& config, const Simulation& simulation,
                                          const Diagnostics& reference) {
  const RunSpec& spec = config.spec;
  std::vector<ScheduledOutput> outputs;
  const long now = simulation.step();
  if (spec.output.every > 0.0) {
    auto series = std::make_shared<SnapshotSeries>(config, simulation);
    outputs.push_back({after(output_steps(simulation.time_plan(), spec.output.every, true), now - (now == 0 ? 1 : 0)),
                       [series](long step, double time, const std::vector<double>& state) {
                         series->write(step, time, state);
                       }});
  }
  if (spec.output.checkpoint_every > 0.0) {
    const Decomposition& decomposition = simulation.decomposition();
    const std::uint64_t hash = io::physics_hash(spec);
    outputs.push_back({after(output_steps(simulation.time_plan(), spec.output.checkpoint_every, false), now),
                       [&config, &decomposition, hash, reference](long step, double time,
                                                                  const std::vector<double>& interior) {
                         const std::vector<double> state = gather_interior(decomposition, interior);
                         on_root_for_all(decomposition.comm(), [&] {
                           io::write_checkpoint(config.spec.output.dir,
                                                {step, time, hash, config.spec.grid.nx, config.spec.grid.nz,
                                                 reference.mass, reference.total_energy},
                                                state, config.resolved_yaml);
                         });
                       }});
  }
  return outputs;
}

Restart restart_from(Simulation& simulation, const RunSpec& spec, const std::string& which) {
  const fs::path path = which == "latest" ? io::latest_checkpoint(spec.output.dir) : fs::path(which);
  const io::CheckpointHeader header = io::read_checkpoint_header(path);
  if (header.config_hash != io::physics_hash(spec) || header.nx != spec.grid.nx || header.nz != spec.grid.nz)
    throw Error(ExitCode::bad_input, path.string(),
                fmt::format("checkpoint of an incompatible configuration (its grid is {} x {}; case and grid must "
                            "match the configuration's {} {} x {})",
                            header.nx, header.nz, to_string(spec.case_name), spec.grid.nx, spec.grid.nz));
  if (header.step >= simulation.time_plan().num_steps() || simulation.time_plan().time_after(header.step) != header.time)
    throw Error(ExitCode::bad_input, path.string(),
                fmt::format("checkpoint at step {} (t = {} s) does not fit this run's {} steps", header.step,
                            header.time, simulation.time_plan().num_steps()));
  simulation.restore(header.step, io::read_checkpoint_block(path, simulation.decomposition().box()));
  return {path.string(), {header.initial_mass, header.initial_total_energy}};
}

}  // namespace simapp::app
