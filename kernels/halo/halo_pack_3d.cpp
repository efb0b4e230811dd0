#include "kernels/halo/halo_pack_3d.hpp"

#include "kernels/backend/parallel_for.hpp"

namespace simapp {

namespace {

/// The cells of one side's message: ni × nj × nk, `halo` along the direction.
struct MessageExtent {
  int ni = 0, nj = 0, nk = 0;
  SIMAPP_HOST_DEVICE std::size_t cells() const { return static_cast<std::size_t>(ni) * nj * nk; }
};

MessageExtent message_extent(Direction direction, const FieldShape<3>& shape) {
  const int h = shape.halo;
  if (direction == Direction::x) return {h, shape.ny, shape.nz};
  if (direction == Direction::y) return {shape.nx, h, shape.nz};
  return {shape.nx, shape.ny, h};
}

struct Cell3d {
  int i, j, k;
};

/// The field cell of message point (a, b, c) of side `side`: an interior cell next to the side
/// (packing) or a ghost cell beyond it (unpacking).
SIMAPP_HOST_DEVICE inline Cell3d message_cell(Direction direction, const FieldShape<3>& shape, int side, bool ghost,
                                              int a, int b, int c) {
  Cell3d cell{a, b, c};
  int& along = direction == Direction::x ? cell.i : direction == Direction::y ? cell.j : cell.k;
  const int n = direction == Direction::x ? shape.nx : direction == Direction::y ? shape.ny : shape.nz;
  if (ghost)
    along = side == 0 ? along - shape.halo : n + along;
  else
    along = side == 0 ? along : n - shape.halo + along;
  return cell;
}

/// Offset of message point (a, b, c) of variable v within one side.
SIMAPP_HOST_DEVICE inline std::size_t buffer_index(const MessageExtent& extent, int v, int a, int b, int c) {
  return ((static_cast<std::size_t>(v) * extent.nk + c) * extent.nj + b) * extent.ni + a;
}

const char* label(Direction direction, bool pack) {
  if (direction == Direction::x) return pack ? "pack_halos_3d_x" : "unpack_halos_3d_x";
  if (direction == Direction::y) return pack ? "pack_halos_3d_y" : "unpack_halos_3d_y";
  return pack ? "pack_halos_3d_z" : "unpack_halos_3d_z";
}

}  // namespace

std::size_t halo_side_size_3d(Direction direction, const FieldShape<3>& shape) {
  return message_extent(direction, shape).cells() * shape.num_vars;
}

/// A thread a message cell (both sides, every variable): an x or z message is two cells thin
/// along its direction, so a thread a column of it left the GPU nearly idle
/// (docs/performance/journal/2026-12-04-3d-two-gpus.md).
void pack_halos_3d(const Stream& stream, Direction direction, FieldView<const double, 3> field, double* buffer) {
  const MessageExtent extent = message_extent(direction, field.shape);
  const std::size_t side_size = halo_side_size_3d(direction, field.shape);
  const int vars = field.shape.num_vars;
  parallel_for_cells<3>(
      label(direction, true), stream, CellBox{0, extent.ni, 0, extent.nj, 0, extent.nk},
      SIMAPP_LAMBDA(int a, int b, int c) {
        for (int side = 0; side < 2; ++side) {
          const Cell3d cell = message_cell(direction, field.shape, side, false, a, b, c);
          for (int v = 0; v < vars; ++v)
            buffer[side * side_size + buffer_index(extent, v, a, b, c)] = field(v, cell.k, cell.j, cell.i);
        }
      });
}

void unpack_halos_3d(const Stream& stream, Direction direction, FieldView<double, 3> field, const double* buffer,
                     NeighbourSides sides) {
  const MessageExtent extent = message_extent(direction, field.shape);
  const std::size_t side_size = halo_side_size_3d(direction, field.shape);
  const int vars = field.shape.num_vars;
  parallel_for_cells<3>(
      label(direction, false), stream, CellBox{0, extent.ni, 0, extent.nj, 0, extent.nk},
      SIMAPP_LAMBDA(int a, int b, int c) {
        for (int side = 0; side < 2; ++side) {
          if (side == 0 ? !sides.low : !sides.high) continue;
          const Cell3d cell = message_cell(direction, field.shape, side, true, a, b, c);
          for (int v = 0; v < vars; ++v)
            field(v, cell.k, cell.j, cell.i) = buffer[side * side_size + buffer_index(extent, v, a, b, c)];
        }
      });
}

}  // namespace simapp
