#pragma once
/// What every rank agrees on before any work: the configuration, the backend, how halos
/// travel and why, the GPU each rank takes, and that the grid fits in memory. Errors here are
/// the same on every rank (bad input).
#include <chrono>
#include <string>

#include "app/command_line.hpp"
#include "io/config/load_config.hpp"
#include "io/output/run_outputs.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp::app {

/// What set-up produced: everything every rank agrees on before any work.
struct Setup {
  std::chrono::steady_clock::time_point started;  ///< when the process started: execution.wall_limit counts from it
  io::LoadedConfig config;
  Backend backend = Backend::host;
  std::string halo_reason;         ///< why parallel.halo is what it is (auto made concrete, or as configured)
  std::string granularity_reason;  ///< what made execution.granularity: auto concrete; empty as configured
  std::string mode_reason;         ///< what made execution.mode: auto concrete; empty as configured
};

/// Loads the configuration with the command line's overrides (--set, --backend, --mode), the
/// same on every rank.
io::LoadedConfig load_configuration(const CommandLine& command_line);

/// Loads the configuration (with the command line's overrides; from a pipe, waiting for its
/// writer until a stop signal), refuses more OpenMP threads than 4 a usable CPU, and picks the
/// backend, for a process that started at `started`.
Setup set_up(const CommandLine& command_line, std::chrono::steady_clock::time_point started);

/// Makes parallel.halo concrete (auto: NCCL where the build has it, the backend is CUDA and
/// every rank has a GPU of its own, on every node; MPI otherwise) and keeps why, for the header.
void choose_halos(Setup& setup, const Decomposition& decomposition);

/// Makes execution.granularity concrete (auto: the fastest the run can use on its backend,
/// solver/step/granularity_choice.hpp) and keeps why, for the reports.
void choose_granularity(Setup& setup, const Decomposition& decomposition);

/// The run's granularity as the reports name it: "stage", or "pass (auto: …)".
std::string describe_granularity(const Setup& setup);

/// Makes execution.mode concrete (auto: the fastest the run can use, solver/executor/mode_choice.hpp), after the
/// granularity, and keeps why, for the reports.
void choose_mode(Setup& setup, const Decomposition& decomposition);

/// The run's mode as the reports name it: "graph", or "persistent (auto: …)".
std::string describe_mode(const Setup& setup);

/// Each rank takes GPU (node-local rank mod GPUs on the node); NCCL halos need them distinct.
void bind_devices(const Setup& setup, const Decomposition& decomposition);

/// What the grid's arrays take (bytes), and what rank 0's processor has for them.
struct MemoryUse {
  double per_rank = 0.0;   ///< the most any rank needs
  double in_all = 0.0;     ///< every rank's together
  int sharing = 1;         ///< ranks sharing rank 0's processor memory (a node's, or a GPU's)
  double available = 0.0;  ///< on rank 0's processor
};

/// Refuses a grid whose arrays do not fit in the memory of the processor each rank runs on
/// (shared by the ranks of a node, or of a GPU), before anything is allocated; returns what
/// they take (collective; the job's figures on rank 0).
MemoryUse require_memory(const Setup& setup, const Decomposition& decomposition);

/// What the run may do with results an earlier run left: continue (--restart), replace
/// (--overwrite), or refuse.
io::ExistingResults existing_results(const CommandLine& command_line);

}  // namespace simapp::app
