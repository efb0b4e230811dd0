#pragma once
/// Packing halo messages of the 3-D model for an MPI exchange of width `halo` along one
/// direction: the `halo` interior layers next to each side (columns i for x, rows j for y, layers
/// k for z) over the interior cells of the other two axes, every variable. The split passes read
/// ghost cells along their own direction only, so no message carries corner cells. A buffer
/// holds both sides: [side][var][k][j][i] over the message's cells, side 0 = low.
#include <cstddef>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Doubles in one side of a message along `direction`.
std::size_t halo_side_size_3d(Direction direction, const FieldShape<3>& shape);

/// buffer[side] ← the interior cells next to that side.
void pack_halos_3d(const Stream& stream, Direction direction, FieldView<const double, 3> field, double* buffer);

/// The ghost cells of each side in `sides` ← buffer[side] (the neighbour's message: the low
/// side's ghosts from the low neighbour's high side).
void unpack_halos_3d(const Stream& stream, Direction direction, FieldView<double, 3> field, const double* buffer,
                     NeighbourSides sides);

}  // namespace simapp
