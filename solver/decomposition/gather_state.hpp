#pragma once
/// Assembling the global interior state on rank 0, in a fixed layout [var][k][i] over the
/// global nx × nz cells, whatever the decomposition.
#include <vector>

#include "kernels/backend/field_view.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp {

/// Collective. `local` is this rank's padded state (FieldShape `shape`); rank 0 gets the
/// global interior state, other ranks an empty vector.
std::vector<double> gather_interior(const Decomposition& decomposition, const FieldShape& shape,
                                    const std::vector<double>& local);

}  // namespace simapp
