#pragma once
/// Assembling the global interior state on rank 0, in a fixed layout [var][k][i] over the
/// global nx × nz cells, whatever the decomposition.
#include <vector>

#include "kernels/backend/field_view.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp {

/// This rank's interior cells [var][k][i] of a padded state of shape `shape`.
std::vector<double> interior_of(const FieldShape& shape, const std::vector<double>& padded);

/// Collective. `interior` is this rank's interior state [var][k][i]; rank 0 gets the global
/// interior state, other ranks an empty vector.
std::vector<double> gather_interior(const Decomposition& decomposition, const std::vector<double>& interior);

}  // namespace simapp
