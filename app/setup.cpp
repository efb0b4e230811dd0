#include "app/setup.hpp"

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>

#include <fmt/core.h>

#include "app/mpi_session.hpp"
#include "app/stop_signals.hpp"
#include "foundation/error.hpp"
#include "foundation/printable_text.hpp"
#include "io/config/config_text.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/host_memory.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/executor/mode_choice.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/step/granularity_choice.hpp"

namespace simapp::app {

namespace {

/// Refuses a job whose ranks chose different backends (auto on nodes with and without a GPU),
/// the same on every rank.
void require_same_backend(Backend backend) {
  int mine = static_cast<int>(backend), lowest = mine, highest = mine;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (lowest != highest)
    throw Error(ExitCode::bad_input, "execution.backend",
                "auto chose cuda on some ranks and host on others (not every node has a GPU); set cuda or host",
                ErrorReach::every_rank);
}

/// The most OpenMP threads a process may compute on, for each CPU it may run on: more only slow
/// the steps, and far more crash inside the OpenMP runtime (libgomp starts a team with an
/// array of all its threads on the stack: 100000 threads overflow a stack of 8 MiB).
constexpr int most_threads_per_cpu = 4;

/// The CPUs this process may run on (its affinity mask: what a batch system or mpirun's
/// binding gives it).
int usable_cpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0) return std::max(1, CPU_COUNT(&cpus));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Refuses more OpenMP threads (OMP_NUM_THREADS) than most_threads_per_cpu a usable CPU.
void require_sane_thread_count() {
  const int threads = device::host_compute_threads();
  const int cpus = usable_cpus();
  if (threads > most_threads_per_cpu * cpus)
    throw Error(ExitCode::bad_input, "OMP_NUM_THREADS",
                fmt::format("{} OpenMP threads, more than {} for each of the {} CPU{} this process may run on: set "
                            "it to at most {} (one thread a CPU is fastest)",
                            threads, most_threads_per_cpu, cpus, cpus == 1 ? "" : "s", most_threads_per_cpu * cpus));
}

/// How the wait for a configuration from a pipe ends early (a stop signal) and what it says
/// meanwhile, so that `simapp f` on a named pipe nothing writes to is neither a silent hang nor
/// deaf to Ctrl-C.
io::PipeWait configuration_pipe_wait(const std::string& path) {
  return {[] { return std::string(stop_signal_name()); },
          [path] {
            fmt::print(stderr,
                       "simapp: waiting for something to write the configuration into the pipe '{}' (Ctrl-C "
                       "stops)\n",
                       printable(path));
            std::fflush(stderr);
          }};
}

}  // namespace

io::LoadedConfig load_configuration(const CommandLine& command_line) {
  std::vector<std::string> overrides = command_line.overrides;
  if (!command_line.backend.empty()) overrides.push_back("execution.backend=" + command_line.backend);
  if (!command_line.mode.empty()) overrides.push_back("execution.mode=" + command_line.mode);
  // Rank 0 reads the file (stdin, say, reaches it alone); every rank reads the same text.
  std::string text;
  run_on_root_agreed(MPI_COMM_WORLD, [&] {
    text = io::read_config_text(command_line.config_path, configuration_pipe_wait(command_line.config_path));
  });
  text = broadcast_text(text, 0, MPI_COMM_WORLD);
  io::LoadedConfig config;
  run_agreed(MPI_COMM_WORLD, [&] { config = io::load_config_text(command_line.config_path, text, overrides); });
  return config;
}

Setup set_up(const CommandLine& command_line, std::chrono::steady_clock::time_point started) {
  Setup setup{started, load_configuration(command_line), Backend::host, {}, {}, {}};
  run_agreed(MPI_COMM_WORLD, [&] {
    if (!command_line.restart.empty() && setup.config.spec.execution.mode == ExecutionMode::compare)
      throw Error(ExitCode::bad_input, "--restart", "cannot be combined with execution.mode compare");
  });
  run_agreed(MPI_COMM_WORLD, require_sane_thread_count);
  run_agreed(MPI_COMM_WORLD, [&] { setup.backend = device::resolve_backend(setup.config.spec.execution.backend); });
  require_same_backend(setup.backend);
  run_agreed(MPI_COMM_WORLD,
             [&] { halo_path(setup.backend, setup.config.spec.parallel); });  // refuses nccl where it cannot run
  return setup;
}

void bind_devices(const Setup& setup, const Decomposition& decomposition) {
  if (setup.backend != Backend::cuda) return;
  run_agreed(decomposition.comm(), [] { device::select_device(node_local_rank() % device::device_count()); });
  if (setup.config.spec.parallel.halo == HaloTransport::nccl && decomposition.size() > 1)
    require_one_gpu_per_rank(decomposition.comm());
}

void choose_halos(Setup& setup, const Decomposition& decomposition) {
  int own_gpu = setup.backend == Backend::cuda && node_local_size() <= device::device_count() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &own_gpu, 1, MPI_INT, MPI_MIN, decomposition.comm());
  HaloTransportChoice choice =
      choose_halo_transport(setup.config.spec.parallel.halo, setup.backend, decomposition.size(), own_gpu != 0);
  setup.config.spec.parallel.halo = choice.transport;
  setup.halo_reason = std::move(choice.reason);
}

void choose_granularity(Setup& setup, const Decomposition& decomposition) {
  GranularityChoice choice = simapp::choose_granularity(setup.config.spec, setup.backend, decomposition.box());
  setup.config.spec.execution.granularity = choice.granularity;
  setup.granularity_reason = std::move(choice.reason);
}

std::string describe_granularity(const Setup& setup) {
  return simapp::describe_granularity({setup.config.spec.execution.granularity, setup.granularity_reason});
}

void choose_mode(Setup& setup, const Decomposition& decomposition) {
  ModeChoice choice = simapp::choose_mode(setup.config.spec, setup.backend, decomposition);
  setup.config.spec.execution.mode = choice.mode;
  setup.mode_reason = std::move(choice.reason);
}

std::string describe_mode(const Setup& setup) {
  return simapp::describe_mode({setup.config.spec.execution.mode, setup.mode_reason});
}

MemoryUse require_memory(const Setup& setup, const Decomposition& decomposition) {
  const int sharing = setup.backend == Backend::cuda
                          ? (node_local_size() + device::device_count() - 1) / device::device_count()
                          : node_local_size();
  MemoryUse use{0.0, 0.0, sharing, 0.0};
  run_agreed(decomposition.comm(), [&] {
    const double per_rank = static_cast<double>(memory_needed(setup.config.spec, setup.backend, decomposition));
    const double needed = per_rank * sharing;
    const double available = static_cast<double>(device::available_memory(setup.backend));
    use.per_rank = per_rank;
    use.available = available;
    const GridSpec& grid = setup.config.spec.grid;
    if (needed > available)
      throw Error(ExitCode::bad_input, "grid",
                  fmt::format("{} cells need {:.3g} GB of {} memory{}, but {:.3g} GB are available (use more "
                              "ranks or a smaller grid)",
                              cells_text(grid), needed / 1e9, setup.backend == Backend::cuda ? "GPU" : "host",
                              sharing > 1 ? fmt::format(" for the {} ranks sharing it", sharing) : std::string(),
                              available / 1e9));
    // A process's address-space limit also counts the threads it starts.
    const OutputSpec& output = setup.config.spec.output;
    const std::size_t threads = static_cast<std::size_t>(device::host_compute_threads()) +
                                (output.every > 0 && output.compression == 0
                                     ? io::snapshot_writer_threads(io::grid_fields(output.variables).size())
                                     : 0);
    const double mapped = per_rank + static_cast<double>(threads * device::address_space_per_thread());
    const double process_room = static_cast<double>(device::host_memory_room().process);
    if (setup.backend == Backend::host && mapped > process_room)
      throw Error(ExitCode::bad_input, "grid",
                  fmt::format("{} cells need {:.3g} GB of host memory a rank ({:.3g} GB with the stacks and "
                              "heaps of its {} threads), but the address-space limit of the process (ulimit -v, a "
                              "batch system's memory limit) leaves {:.3g} GB (use more ranks, a smaller grid or a "
                              "higher limit)",
                              cells_text(grid), per_rank / 1e9, mapped / 1e9, threads, process_room / 1e9));
  });
  const double mine = use.per_rank;
  MPI_Reduce(&mine, &use.per_rank, 1, MPI_DOUBLE, MPI_MAX, 0, decomposition.comm());
  MPI_Reduce(&mine, &use.in_all, 1, MPI_DOUBLE, MPI_SUM, 0, decomposition.comm());
  return use;
}

io::ExistingResults existing_results(const CommandLine& command_line) {
  if (!command_line.restart.empty()) return io::ExistingResults::continue_run;
  return command_line.overwrite ? io::ExistingResults::replace : io::ExistingResults::refuse;
}

}  // namespace simapp::app
