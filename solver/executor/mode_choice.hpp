#pragma once
/// execution.mode auto made concrete, once, at set-up (after the granularity, on the bound
/// device) before any executor is built: the fastest mode the run can use, from the small- and
/// large-grid measurements of docs/performance.md ("Small grids: where a step's time goes"). On
/// CUDA with one rank, where the pass tiles serve every pass and the state holds no water:
/// persistent_cluster in float32 up to cluster_most_cells cells (one cluster computes every tile
/// of a pass at once; in float64 its 14–16 multiprocessors take longer than the whole GPU's grid
/// barrier costs); persistent up to persistent_most_cells, where a grid barrier a pass costs less
/// than the graph's launches; graph beyond, where the persistent kernel's blocks loop over more
/// tiles than the GPU holds at once. With water graph (the microphysics is faster as kernels of
/// its own). graph on the host backend (every mode runs the same kernels one after another there)
/// and with several ranks (the persistent kernels run on one). Every mode computes the same fields
/// bit for bit, so the choice changes the speed alone.
#include <string>

#include "kernels/backend/backend_kind.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// Cells (nx × ny × nz) up to which auto takes persistent_cluster (float32), and persistent.
inline constexpr long cluster_most_cells = 2048;
inline constexpr long persistent_most_cells = 8192;

/// A mode and why the run takes it.
struct ModeChoice {
  ExecutionMode mode = ExecutionMode::graph;
  std::string reason;  ///< what decided execution.mode: auto ("auto: …"); empty as configured
};

/// `spec`'s execution.mode made concrete for its run on `backend` over `decomposition` (its
/// granularity concrete already; on CUDA the device bound: persistent_cluster needs clusters).
ModeChoice choose_mode(const RunSpec& spec, Backend backend, const Decomposition& decomposition);

/// The mode as reports name it: "graph", or with what auto decided, "persistent (auto: …)".
std::string describe_mode(const ModeChoice& choice);

}  // namespace simapp
