#pragma once
/// Packing halo messages for an MPI exchange of width `halo`:
///   x: the `halo` interior columns next to each side, interior rows, every variable;
///   z: the `halo` interior rows next to each side, the full padded width (so corner cells
///      carry the neighbour's x ghosts), every variable.
/// A buffer holds both sides: [side][var][row][column], side 0 = low (left / bottom).
#include <cstddef>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Which sides of a direction face a neighbour rank (unpack writes only those).
struct NeighbourSides {
  bool low = true;
  bool high = true;
};

/// Doubles in one side of a message.
std::size_t halo_side_size(Direction direction, const FieldShape<2>& shape);

/// buffer[side] ← the interior cells next to that side.
void pack_halos(const Stream& stream, Direction direction, FieldView<const double, 2> field, double* buffer);

/// The ghost cells of each side in `sides` ← buffer[side].
void unpack_halos(const Stream& stream, Direction direction, FieldView<double, 2> field, const double* buffer,
                  NeighbourSides sides);

}  // namespace simapp
