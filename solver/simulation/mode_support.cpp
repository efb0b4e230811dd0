#include "solver/simulation/mode_support.hpp"

#include "foundation/error.hpp"
#include "solver/step/step_outline.hpp"

namespace simapp {

std::string why_mode_cannot_run(ExecutionMode mode, const RunSpec& spec, Backend backend,
                                const Decomposition& decomposition) {
  const std::string name(to_string(mode));
  const bool persistent = mode == ExecutionMode::persistent;
  if (persistent && spec.execution.granularity != Granularity::stage)
    return name +
           " runs the stage kernel's tiles, one stage between grid barriers: it needs execution.granularity: "
           "stage, not " +
           std::string(to_string(spec.execution.granularity));
  if (persistent && decomposition.size() > 1)
    return name +
           " runs on one rank: halos between ranks would have to travel inside the kernel (NCCL "
           "device-initiated communication, which simapp does not use); use graph_loop with parallel.halo: nccl";
  if (!mode_runs_on(mode, backend)) return name + " needs the CUDA backend, but this run uses host";
  if (mode == ExecutionMode::graph_loop &&
      exchanges_halos_on_host(ghost_fill(spec, decomposition, halo_path(backend, spec.parallel))))
    return name +
           " needs steps without host operations: one rank, or parallel.halo: nccl (MPI halos are exchanged "
           "by the host every stage)";
  return {};
}

void require_mode_can_run(ExecutionMode mode, const RunSpec& spec, Backend backend,
                          const Decomposition& decomposition) {
  if (const std::string why = why_mode_cannot_run(mode, spec, backend, decomposition); !why.empty())
    throw Error(ExitCode::bad_input, "execution.mode", why);
}

}  // namespace simapp
