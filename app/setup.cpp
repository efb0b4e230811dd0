#include "app/setup.hpp"

#include <mpi.h>

#include <utility>

#include <fmt/core.h>

#include "app/mpi_session.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/error.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::app {

Setup set_up(const CommandLine& command_line) {
  std::vector<std::string> overrides = command_line.overrides;
  if (!command_line.backend.empty()) overrides.push_back("execution.backend=" + command_line.backend);
  if (!command_line.mode.empty()) overrides.push_back("execution.mode=" + command_line.mode);
  Setup setup{io::load_config(command_line.config_path, overrides), Backend::host, {}};
  if (!command_line.restart.empty() && setup.config.spec.execution.mode == ExecutionMode::compare)
    throw Error(ExitCode::bad_input, "--restart", "cannot be combined with execution.mode compare");
  setup.backend = device::resolve_backend(setup.config.spec.execution.backend);
  halo_path(setup.backend, setup.config.spec.parallel);  // refuses nccl where it cannot run
  return setup;
}

void bind_devices(const Setup& setup, const Decomposition& decomposition) {
  if (setup.backend != Backend::cuda) return;
  device::select_device(node_local_rank() % device::device_count());
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

void require_memory(const Setup& setup, const Decomposition& decomposition) {
  const int sharing = setup.backend == Backend::cuda
                          ? (node_local_size() + device::device_count() - 1) / device::device_count()
                          : node_local_size();
  run_agreed(decomposition.comm(), [&] {
    const double needed = static_cast<double>(memory_needed(setup.config.spec, setup.backend, decomposition)) * sharing;
    const double available = static_cast<double>(device::available_memory(setup.backend));
    if (needed > available)
      throw Error(ExitCode::bad_input, "grid",
                  fmt::format("{} x {} cells need {:.3g} GB of {} memory{}, but {:.3g} GB are available (use more "
                              "ranks or a smaller grid)",
                              setup.config.spec.grid.nx, setup.config.spec.grid.nz, needed / 1e9,
                              setup.backend == Backend::cuda ? "GPU" : "host",
                              sharing > 1 ? fmt::format(" for the {} ranks sharing it", sharing) : std::string(),
                              available / 1e9));
  });
}

io::ExistingResults existing_results(const CommandLine& command_line) {
  if (!command_line.restart.empty()) return io::ExistingResults::continue_run;
  return command_line.overwrite ? io::ExistingResults::replace : io::ExistingResults::refuse;
}

}  // namespace simapp::app
