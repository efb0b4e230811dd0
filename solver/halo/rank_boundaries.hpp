#pragma once
/// A rank's four (3-D: six) sides in the vocabulary of the domain's boundary conditions.
#include "kernels/boundary/boundary_conditions.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/grid/rank_box.hpp"

namespace simapp {

/// The domain's conditions `domain` seen by the rank holding `box` of the grid `global`: each
/// side that faces a neighbour rank marked as exchanged (as_exchanged: an inflow keeps its
/// rows). The decomposition is periodic in x, so once x is split both x sides of every rank
/// face a neighbour; in z the sides between ranks do.
BoundaryConditions<2> rank_boundaries(const BoundaryConditions<2>& domain, const RankBox& box, const GridSpec& global);

/// The 3-D model's: the x and z sides as above, the y sides (periodic) exchanged once y is split.
BoundaryConditions<3> rank_boundaries(const BoundaryConditions<3>& domain, const RankBox& box, const GridSpec& global);

}  // namespace simapp
