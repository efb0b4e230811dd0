#include "kernels/halo/halo_pack.hpp"

#include "kernels/backend/parallel_for.hpp"

namespace simapp {

namespace {

/// The cells of one side's message: ni × nj × nk, `halo` along the direction, columns from i_lo.
struct MessageExtent {
  int ni = 0, nj = 0, nk = 0;
  int i_lo = 0;  ///< −halo for the 2-D z message (the padded width, corners included), else 0
  SIMAPP_HOST_DEVICE std::size_t cells() const { return static_cast<std::size_t>(ni) * nj * nk; }
};

template <int Dims>
MessageExtent message_extent(Direction direction, const FieldShape<Dims>& shape) {
  const int h = shape.halo;
  if (direction == Direction::x) return {h, shape.ny, shape.nz};
  if (direction == Direction::y) return {shape.nx, h, shape.nz};
  if constexpr (Dims == 2)
    return {shape.padded_nx(), 1, h, -h};
  else
    return {shape.nx, shape.ny, h};
}

struct Cell {
  int i, j, k;
};

/// The field cell of message point (i, j, k) of side `side`: an interior cell next to the side
/// (packing) or a ghost cell beyond it (unpacking).
template <int Dims>
SIMAPP_HOST_DEVICE inline Cell message_cell(Direction direction, const FieldShape<Dims>& shape, int side, bool ghost,
                                            int i, int j, int k) {
  Cell cell{i, j, k};
  const bool y_pass = Dims == 3 && direction == Direction::y;
  int& along = direction == Direction::x ? cell.i : y_pass ? cell.j : cell.k;
  const int n = direction == Direction::x ? shape.nx : y_pass ? shape.ny : shape.nz;
  if (ghost)
    along = side == 0 ? along - shape.halo : n + along;
  else
    along = side == 0 ? along : n - shape.halo + along;
  return cell;
}

/// Offset of message point (i, j, k) of variable v within one side.
template <int Dims>
SIMAPP_HOST_DEVICE inline std::size_t buffer_index(const MessageExtent& extent, int v, int i, int j, int k) {
  std::size_t row = static_cast<std::size_t>(v) * extent.nk + k;
  if constexpr (Dims == 3) row = row * extent.nj + j;
  return row * extent.ni + (i - extent.i_lo);
}

/// The kernel's label: pack_halos_x, unpack_halos_z, … (3-D: pack_halos_3d_x, …).
template <int Dims>
const char* label(Direction direction, bool pack) {
  // [pack][direction: x, z, y]
  static constexpr const char* labels_2d[2][3] = {{"unpack_halos_x", "unpack_halos_z", ""},
                                                  {"pack_halos_x", "pack_halos_z", ""}};
  static constexpr const char* labels_3d[2][3] = {{"unpack_halos_3d_x", "unpack_halos_3d_z", "unpack_halos_3d_y"},
                                                  {"pack_halos_3d_x", "pack_halos_3d_z", "pack_halos_3d_y"}};
  return (Dims == 3 ? labels_3d : labels_2d)[pack ? 1 : 0][static_cast<int>(direction)];
}

/// The cells of a message to launch a thread each over.
CellBox message_cells(const MessageExtent& extent) {
  return {extent.i_lo, extent.i_lo + extent.ni, 0, extent.nj, 0, extent.nk};
}

}  // namespace

template <int Dims>
std::size_t halo_side_size(Direction direction, const FieldShape<Dims>& shape) {
  return message_extent(direction, shape).cells() * shape.num_vars;
}

/// A thread a message cell (both sides, every variable): an x or z message is two cells thin
/// along its direction, so a thread a column of it left the GPU nearly idle
/// (docs/performance/journal/2026-12-04-3d-two-gpus.md).
template <class Real, int Dims>
void pack_halos(const Stream& stream, Direction direction, FieldView<const Real, Dims> field, Real* buffer) {
  const MessageExtent extent = message_extent(direction, field.shape);
  const std::size_t side_size = halo_side_size(direction, field.shape);
  const int vars = field.shape.num_vars;
  parallel_for_cells<Dims>(
      label<Dims>(direction, true), stream, message_cells(extent), SIMAPP_LAMBDA(int i, int j, int k) {
        for (int side = 0; side < 2; ++side) {
          const Cell cell = message_cell(direction, field.shape, side, false, i, j, k);
          for (int v = 0; v < vars; ++v)
            buffer[side * side_size + buffer_index<Dims>(extent, v, i, j, k)] = field(v, cell.k, cell.j, cell.i);
        }
      });
}

template <class Real, int Dims>
void unpack_halos(const Stream& stream, Direction direction, FieldView<Real, Dims> field, const Real* buffer,
                  NeighbourSides sides) {
  const MessageExtent extent = message_extent(direction, field.shape);
  const std::size_t side_size = halo_side_size(direction, field.shape);
  const int vars = field.shape.num_vars;
  parallel_for_cells<Dims>(
      label<Dims>(direction, false), stream, message_cells(extent), SIMAPP_LAMBDA(int i, int j, int k) {
        for (int side = 0; side < 2; ++side) {
          if (side == 0 ? !sides.low : !sides.high) continue;
          const Cell cell = message_cell(direction, field.shape, side, true, i, j, k);
          for (int v = 0; v < vars; ++v)
            field(v, cell.k, cell.j, cell.i) = buffer[side * side_size + buffer_index<Dims>(extent, v, i, j, k)];
        }
      });
}

template std::size_t halo_side_size(Direction, const FieldShape<2>&);
template std::size_t halo_side_size(Direction, const FieldShape<3>&);
#define SIMAPP_HALO_PACK_OF(Real, Dims)                                                   \
  template void pack_halos(const Stream&, Direction, FieldView<const Real, Dims>, Real*); \
  template void unpack_halos(const Stream&, Direction, FieldView<Real, Dims>, const Real*, NeighbourSides);
SIMAPP_HALO_PACK_OF(double, 2)
SIMAPP_HALO_PACK_OF(double, 3)
SIMAPP_HALO_PACK_OF(float, 2)
SIMAPP_HALO_PACK_OF(float, 3)
#undef SIMAPP_HALO_PACK_OF

}  // namespace simapp
