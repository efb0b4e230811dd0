#pragma once
/// How a run's steps are launched (execution.mode) and how finely they are split into
/// kernels (execution.granularity).
#include <array>
#include <string_view>
#include <utility>

#include "foundation/name_table.hpp"
#include "kernels/backend/backend_kind.hpp"

namespace simapp {

/// eager_sync: one launch per kernel, waiting after each; eager: one launch per kernel;
/// eager_streams: one launch per kernel, each lane on a stream of its own (CUDA); graph:
/// captured segments replayed; graph_loop: one launch of a graph with a WHILE node runs every
/// step between two host events (CUDA); persistent: one cooperative kernel runs every step
/// between two host events, its stages separated by grid-wide barriers (CUDA, one rank, stage or
/// pass granularity); persistent_cluster: the persistent kernel on one thread-block cluster, its
/// passes separated by the cluster's barriers (CUDA, one rank, the pass tiles); compare: each of
/// them from the same initial state, timed; automatic: the fastest the run can use, made concrete
/// once at set-up (choose_mode) before any step is built.
enum class ExecutionMode {
  eager_sync,
  eager,
  eager_streams,
  graph,
  graph_loop,
  persistent,
  persistent_cluster,
  compare,
  automatic
};

/// fine: one kernel per operation per variable; fused: a few kernels per stage; stage: one
/// kernel per stage (fluxes kept on chip); pass: one kernel per split pass (its three stages on
/// chip) where the rank holds the whole line along the pass and its ghost cells are periodic
/// images or wall rows, else the stage kernels; automatic: the fastest of them the run can use on
/// its backend, made concrete once at set-up (choose_granularity) before any step is built.
enum class Granularity { fine, fused, stage, pass, automatic };

/// Whether a granularity's kernels keep the fluxes on chip (no flux arrays in memory).
constexpr bool keeps_fluxes_on_chip(Granularity granularity) {
  return granularity == Granularity::stage || granularity == Granularity::pass;
}

inline constexpr std::array<std::pair<ExecutionMode, std::string_view>, 9> execution_mode_names{{
    {ExecutionMode::eager_sync, "eager_sync"},
    {ExecutionMode::eager, "eager"},
    {ExecutionMode::eager_streams, "eager_streams"},
    {ExecutionMode::graph, "graph"},
    {ExecutionMode::graph_loop, "graph_loop"},
    {ExecutionMode::persistent, "persistent"},
    {ExecutionMode::persistent_cluster, "persistent_cluster"},
    {ExecutionMode::compare, "compare"},
    {ExecutionMode::automatic, "auto"},
}};

/// The modes execution.mode compare can time, in the order it runs them.
inline constexpr std::array<ExecutionMode, 7> timed_modes{
    ExecutionMode::eager_sync, ExecutionMode::eager,      ExecutionMode::eager_streams,     ExecutionMode::graph,
    ExecutionMode::graph_loop, ExecutionMode::persistent, ExecutionMode::persistent_cluster};

/// Whether `mode` runs the persistent kernel (over the whole GPU or one cluster).
constexpr bool runs_persistent_kernel(ExecutionMode mode) {
  return mode == ExecutionMode::persistent || mode == ExecutionMode::persistent_cluster;
}

inline constexpr std::array<std::pair<Granularity, std::string_view>, 5> granularity_names{{
    {Granularity::automatic, "auto"},
    {Granularity::fine, "fine"},
    {Granularity::fused, "fused"},
    {Granularity::stage, "stage"},
    {Granularity::pass, "pass"},
}};

constexpr std::string_view to_string(ExecutionMode mode) { return name_in(execution_mode_names, mode); }

/// Whether a run on `backend` can use `mode` (eager_streams needs CUDA streams, graph_loop
/// CUDA's conditional graph nodes, persistent a cooperative launch, persistent_cluster a cluster
/// launch).
constexpr bool mode_runs_on(ExecutionMode mode, Backend backend) {
  return (mode != ExecutionMode::eager_streams && mode != ExecutionMode::graph_loop && !runs_persistent_kernel(mode)) ||
         backend == Backend::cuda;
}

constexpr std::string_view to_string(Granularity granularity) { return name_in(granularity_names, granularity); }

}  // namespace simapp
