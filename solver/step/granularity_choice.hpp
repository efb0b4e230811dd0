#pragma once
/// execution.granularity: auto made concrete, once, before any step is built: the fastest
/// granularity the run can use on its backend (docs/performance/journal/2026-12-04-pass-granularity.md). On
/// CUDA that is pass wherever a step runs pass kernels (a rank holding the whole line of two or
/// more of its passes, with periodic or wall sides: pass_placement.hpp), a pass kernel moving a
/// third of the bytes of the three stage kernels it replaces; else stage, as pass would run
/// stage kernels throughout, as it would for a state of more tracers than a pass kernel carries
/// (pass_kernel_carries). On the host backend stage: a pass tile there recomputes its margins
/// one item after another, 1.5 to 1.9 times slower than the stage kernels. Every granularity
/// computes the same fields bit for bit, so the choice changes the speed alone.
#include <string>

#include "kernels/backend/backend_kind.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "solver/grid/rank_box.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// A granularity and why the run takes it.
struct GranularityChoice {
  Granularity granularity = Granularity::stage;
  std::string reason;  ///< what decided execution.granularity: auto ("auto: …"); empty as configured
};

/// `asked` made concrete for a run on `backend` by a rank whose sides are `sides` (2-D).
GranularityChoice choose_granularity(Granularity asked, Backend backend, const BoundaryConditions<2>& sides);

/// `asked` made concrete for a run of the 3-D model on `backend` by a rank whose sides are `sides`.
GranularityChoice choose_granularity(Granularity asked, Backend backend, const BoundaryConditions<3>& sides);

/// `spec`'s execution.granularity made concrete for its run on `backend` by the rank holding
/// `box` (rank_boundaries of the case's sides). The same on every rank: a rank holds the whole
/// line along a direction only where no rank splits it.
GranularityChoice choose_granularity(const RunSpec& spec, Backend backend, const RankBox& box);

/// Why the pass tiles cannot run every pass of `spec`'s run by the rank holding `box` (a state of
/// more tracers than they carry; a line split between ranks, or an inflow side); empty where they
/// can (the persistent kernel on one cluster needs them).
std::string why_pass_tiles_cannot_serve(const RunSpec& spec, const RankBox& box);

/// `spec` with its granularity made concrete as choose_granularity says.
RunSpec with_concrete_granularity(const RunSpec& spec, Backend backend, const RankBox& box);

/// Throws an internal Error: a step was to be built at execution.granularity auto, which set-up
/// and Simulation make concrete first.
[[noreturn]] void refuse_unresolved_granularity();

/// The granularity as reports name it: "stage", or with what auto decided, "pass (auto: …)".
std::string describe_granularity(const GranularityChoice& choice);

}  // namespace simapp
