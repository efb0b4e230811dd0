#include "solver/executor/mode_choice.hpp"

#include <fmt/core.h>

#include "kernels/backend/device_runtime.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/step/granularity_choice.hpp"

namespace simapp {

ModeChoice choose_mode(const RunSpec& spec, Backend backend, const Decomposition& decomposition) {
  if (spec.execution.mode != ExecutionMode::automatic) return {spec.execution.mode, ""};
  if (backend == Backend::host)
    return {ExecutionMode::graph, "auto: the host backend, where every mode runs the kernels one after another"};
  if (decomposition.size() > 1)
    return {ExecutionMode::graph,
            fmt::format("auto: CUDA, {} ranks (the persistent kernels run on one)", decomposition.size())};
  const GridSpec& grid = spec.grid;
  const long cells = static_cast<long>(grid.nx) * grid.ny * grid.nz;
  if (!keeps_fluxes_on_chip(spec.execution.granularity))
    return {ExecutionMode::graph, fmt::format("auto: CUDA, granularity {} (the persistent kernels need stage or pass)",
                                              to_string(spec.execution.granularity))};
  if (const std::string why = why_pass_tiles_cannot_serve(spec, decomposition.box()); !why.empty())
    return {
        ExecutionMode::graph,
        fmt::format("auto: CUDA, one rank, but {} (the persistent kernels were measured with the pass tiles)", why)};
  if (grid.microphysics != Microphysics::none)
    return {ExecutionMode::graph,
            fmt::format("auto: CUDA, one rank, {} cells with water (the microphysics runs faster as kernels of its "
                        "own than inside a persistent kernel)",
                        cells)};
  const bool float32 = spec.execution.precision == Precision::float32;
  if (float32 && cells <= cluster_most_cells && device::has_thread_block_clusters())
    return {ExecutionMode::persistent_cluster,
            fmt::format("auto: CUDA, one rank, {} cells in float32 (up to {}: the pass tiles on one cluster)", cells,
                        cluster_most_cells)};
  if (cells <= persistent_most_cells)
    return {ExecutionMode::persistent,
            fmt::format("auto: CUDA, one rank, {} cells (up to {}: a grid barrier a pass costs less than launches)",
                        cells, persistent_most_cells)};
  return {ExecutionMode::graph, fmt::format("auto: CUDA, one rank, {} cells (more than {}: graph replays the kernels)",
                                            cells, persistent_most_cells)};
}

std::string describe_mode(const ModeChoice& choice) {
  const std::string name(to_string(choice.mode));
  return choice.reason.empty() ? name : fmt::format("{} ({})", name, choice.reason);
}

}  // namespace simapp
