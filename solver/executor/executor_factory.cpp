#include "solver/executor/executor_factory.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

#include "foundation/error.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "solver/executor/chunk_executor.hpp"
#include "solver/executor/eager_runner.hpp"
#include "solver/executor/graph_loop_executor.hpp"
#include "solver/executor/graph_runner.hpp"
#include "solver/executor/persistent_executor.hpp"
#include "solver/grid/grid.hpp"
#include "solver/step/granularity_choice.hpp"
#include "solver/step/step_outline.hpp"
#include "solver/step/steps_per_graph.hpp"
#if SIMAPP_USE_CUDA
#include "solver/executor/lane_streams_runner.hpp"
#endif

namespace simapp {

namespace {

/// The bytes of the arrays a step reads and writes on the rank holding `box`, qⁿ, q* and q**: the state's shape
/// (Grid::cell_shape: the variables and tracers, the ghost cells included) in the run's precision.
std::size_t steps_state_bytes(const RunSpec& spec, const RankBox& box) {
  const Grid grid(spec.grid, box);
  const std::size_t values = grid.is_3d() ? grid.cell_shape<3>().size() : grid.cell_shape<2>().size();
  return 3 * values * value_bytes(spec.execution.precision);
}

}  // namespace

std::string why_mode_cannot_run(ExecutionMode mode, const RunSpec& spec, Backend backend,
                                const Decomposition& decomposition) {
  const std::string name(to_string(mode));
  const bool persistent = runs_persistent_kernel(mode);
  if (persistent && !keeps_fluxes_on_chip(spec.execution.granularity))
    return name +
           " runs the stage and pass kernels' tiles between barriers: it needs execution.granularity: "
           "stage or pass, not " +
           std::string(to_string(spec.execution.granularity));
  if (persistent && decomposition.size() > 1)
    return name +
           " runs on one rank: halos between ranks would have to travel inside the kernel (NCCL "
           "device-initiated communication, which simapp does not use); use graph_loop with parallel.halo: nccl";
  if (!mode_runs_on(mode, backend)) return name + " needs the CUDA backend, but this run uses host";
  if (mode == ExecutionMode::persistent_cluster) {
    if (const std::string why = why_pass_tiles_cannot_serve(spec, decomposition.box()); !why.empty())
      return name + " runs the pass tiles on one cluster, but " + why + ": use persistent or graph";
    if (const std::size_t bytes = steps_state_bytes(spec, decomposition.box()), cache = device::l2_cache_bytes();
        bytes > cache)
      return fmt::format(
          "{} keeps the state on chip, but its arrays (qⁿ, q*, q**: {:.1f} MB) exceed the GPU's L2 cache ({:.1f} MB): "
          "use persistent or graph",
          name, static_cast<double>(bytes) / 1e6, static_cast<double>(cache) / 1e6);
  }
  const bool host_halos =
      spec.grid.ny > 1 ? decomposition.size() > 1 && exchanges_on_host(halo_path(backend, spec.parallel))
                       : exchanges_halos_on_host(ghost_fill<2>(spec, decomposition, halo_path(backend, spec.parallel)));
  if (mode == ExecutionMode::graph_loop && host_halos)
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

/// The steps per graph are as configured, or at most automatic_kernels_per_graph (a step has at least one
/// kernel). A chunk needs one slot a step; graph_loop's body and the chunks beside it one a
/// step of the body (loop_body: the steps per graph made even, or a multiple of the elements' period of at most
/// max_checked_loop_body_kernels kernels); the persistent kernel alternates between two. 120
/// bytes a slot: some 560 KB at most.
int step_params_slots(ExecutionMode mode, const ExecutionSpec& execution) {
  const int most =
      execution.steps_per_graph > 0 ? execution.steps_per_graph : static_cast<int>(automatic_kernels_per_graph);
  if (mode == ExecutionMode::graph_loop) return std::max(2 * most, static_cast<int>(max_checked_loop_body_kernels));
  if (runs_persistent_kernel(mode)) return std::max(2, most);
  return most;
}

std::unique_ptr<Executor> make_executor(ExecutionMode mode, const RunSpec& spec, const Decomposition& decomposition,
                                        const ExecutorContext& context) {
  require_mode_can_run(mode, spec, context.stream.backend, decomposition);
  const auto chunks_run_by = [&](std::unique_ptr<ProgramRunner> runner) {
    return std::make_unique<ChunkExecutor>(context, std::move(runner));
  };
  switch (mode) {
    case ExecutionMode::eager_sync: return chunks_run_by(std::make_unique<EagerRunner>(Synchronization::every_launch));
    case ExecutionMode::eager: return chunks_run_by(std::make_unique<EagerRunner>(Synchronization::none));
#if SIMAPP_USE_CUDA
    case ExecutionMode::eager_streams: return chunks_run_by(std::make_unique<LaneStreamsRunner>());
#else
    case ExecutionMode::eager_streams: break;  // refused above: no CUDA backend in this build
#endif
    case ExecutionMode::graph: return chunks_run_by(std::make_unique<GraphRunner>());
    case ExecutionMode::graph_loop: return std::make_unique<GraphLoopExecutor>(context);
    case ExecutionMode::persistent: return std::make_unique<PersistentExecutor>(context, Residency::grid);
    case ExecutionMode::persistent_cluster: return std::make_unique<PersistentExecutor>(context, Residency::cluster);
    case ExecutionMode::compare:
    case ExecutionMode::automatic: break;  // compare makes an executor for each mode; set-up makes auto concrete
  }
  throw std::invalid_argument("make_executor: " + std::string(to_string(mode)) + " has no executor in this build");
}

}  // namespace simapp
