#pragma once
/// Packing halo messages for an MPI exchange of width `halo` along one direction, for the model
/// in `Dims` dimensions (2 or 3): the `halo` interior layers next to each side (columns i for x,
/// rows j for y, layers k for z) over the interior cells of the other axes, every variable. The
/// split passes read ghost cells along their own direction only, so a 3-D message carries no
/// corner cells; the 2-D z message spans the full padded width, so that its corner cells carry
/// the neighbour's x ghosts. A buffer holds both sides: [side][var][k][j][i] over the message's
/// cells, side 0 = low (left / front / bottom).
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

/// Values (of the state's type) in one side of a message along `direction`.
template <int Dims>
std::size_t halo_side_size(Direction direction, const FieldShape<Dims>& shape);

/// buffer[side] ← the interior cells next to that side.
template <class Real, int Dims>
void pack_halos(const Stream& stream, Direction direction, FieldView<const Real, Dims> field, Real* buffer);

/// The ghost cells of each side in `sides` ← buffer[side] (the neighbour's message: the low
/// side's ghosts from the low neighbour's high side).
template <class Real, int Dims>
void unpack_halos(const Stream& stream, Direction direction, FieldView<Real, Dims> field, const Real* buffer,
                  NeighbourSides sides);

}  // namespace simapp
