#include "solver/halo/rank_boundaries.hpp"

namespace simapp {

BoundaryConditions<2> rank_boundaries(const BoundaryConditions<2>& domain, const RankBox& box, const GridSpec& global) {
  const BoundaryCondition between_ranks{BoundaryKind::exchanged};
  BoundaryConditions<2> sides = domain;
  if (box.nx < global.nx) {
    sides.x_low = box.i_offset == 0 ? as_exchanged(domain.x_low) : between_ranks;
    sides.x_high = box.i_offset + box.nx == global.nx ? as_exchanged(domain.x_high) : between_ranks;
  }
  if (box.k_offset > 0) sides.z_low = between_ranks;
  if (box.k_offset + box.nz < global.nz) sides.z_high = between_ranks;
  return sides;
}

BoundaryConditions<3> rank_boundaries(const BoundaryConditions<3>& domain, const RankBox& box, const GridSpec& global) {
  BoundaryConditions<3> sides{rank_boundaries(domain.xz(), box, global), domain.y_low, domain.y_high};
  if (box.ny < global.ny) {
    sides.y_low = as_exchanged(domain.y_low);
    sides.y_high = as_exchanged(domain.y_high);
  }
  return sides;
}

}  // namespace simapp
