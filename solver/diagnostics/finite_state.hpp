#pragma once
/// The check that keeps a blown-up solution out of the results: before a snapshot or a
/// checkpoint is written, every value of the state must be finite.
#include <span>
#include <vector>

#include "solver/decomposition/decomposition.hpp"

namespace simapp {

/// Throws Error(ExitCode::numerical), known to every rank, naming the step, the time, and the
/// variable and global cell (i, k) of the first value of the global state (by variable, then
/// row, then column) that is NaN or infinite; returns when there is none. `interior` is this
/// rank's interior state [var][k][i]. Collective over the decomposition's ranks.
void require_finite_state(std::span<const double> interior, const Decomposition& decomposition, long step, double time);

}  // namespace simapp
