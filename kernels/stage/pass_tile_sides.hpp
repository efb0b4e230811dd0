#pragma once
/// The ghost cells the pass tiles (pass_tile.hpp, pass_tile_3d.hpp) make themselves: a tile
/// computes the cells a periodic side wraps to as those cells and makes the rows beyond a wall
/// by the wall rule, for one rank holding the whole line along its pass. Ghost cells from
/// another rank or an inflow need the stage kernels (a barrier a stage).
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Whether the pass tiles along `direction` make the ghost cells `sides` ask for along it:
/// periodic along x, walls along z.
constexpr bool pass_tile_makes_along(const BoundaryConditions<2>& sides, Direction direction) {
  if (direction == Direction::x)
    return sides.x_low.kind == BoundaryKind::periodic && sides.x_high.kind == BoundaryKind::periodic;
  return sides.z_low.is_wall() && sides.z_high.is_wall();
}

/// Whether the pass tiles make every ghost cell of `sides`.
constexpr bool pass_tile_makes(const BoundaryConditions<2>& sides) {
  return pass_tile_makes_along(sides, Direction::x) && pass_tile_makes_along(sides, Direction::z);
}

/// Whether the 3-D pass tiles along `direction` make the ghost cells `sides` ask for along it:
/// periodic along x and y, walls along z.
constexpr bool pass_tile_makes_along(const BoundaryConditions<3>& sides, Direction direction) {
  if (direction == Direction::y)
    return sides.y_low.kind == BoundaryKind::periodic && sides.y_high.kind == BoundaryKind::periodic;
  return pass_tile_makes_along(sides.xz(), direction);
}

/// Whether the 3-D pass tiles make every ghost cell of `sides`.
constexpr bool pass_tile_makes(const BoundaryConditions<3>& sides) {
  return pass_tile_makes_along(sides, Direction::x) && pass_tile_makes_along(sides, Direction::y) &&
         pass_tile_makes_along(sides, Direction::z);
}

}  // namespace simapp
