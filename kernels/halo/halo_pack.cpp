#include "kernels/halo/halo_pack.hpp"

#include "kernels/backend/parallel_for.hpp"

namespace simapp {

namespace {

/// The cells of one side's message as a box of (column, row) indices, with where each maps:
/// x: columns [0, halo) of the side, rows [0, nz); z: columns [−halo, nx + halo), rows [0, halo).
IndexBox message_box(Direction direction, const FieldShape<2>& shape) {
  return direction == Direction::x ? IndexBox{0, shape.halo, 0, shape.nz}
                                   : IndexBox{-shape.halo, shape.nx + shape.halo, 0, shape.halo};
}

/// Offset of cell (g, r) of variable v, side s, in a buffer.
SIMAPP_HOST_DEVICE inline std::size_t buffer_index(const IndexBox& box, std::size_t side_size, int side, int v, int g,
                                                   int r) {
  const std::size_t per_var = static_cast<std::size_t>(box.width()) * box.height();
  return side * side_size + v * per_var + static_cast<std::size_t>(r - box.k_lo) * box.width() + (g - box.i_lo);
}

}  // namespace

std::size_t halo_side_size(Direction direction, const FieldShape<2>& shape) {
  return static_cast<std::size_t>(message_box(direction, shape).size()) * shape.num_vars;
}

void pack_halos(const Stream& stream, Direction direction, FieldView<const double, 2> field, double* buffer) {
  const IndexBox box = message_box(direction, field.shape);
  const std::size_t side_size = halo_side_size(direction, field.shape);
  const bool x_pass = direction == Direction::x;
  const int nx = field.shape.nx, nz = field.shape.nz, halo = field.shape.halo, vars = field.shape.num_vars;
  parallel_for(
      x_pass ? "pack_halos_x" : "pack_halos_z", stream, box, SIMAPP_LAMBDA(int g, int r) {
        for (int side = 0; side < 2; ++side) {
          // Low side sends the first `halo` interior columns/rows, high side the last.
          const int i = x_pass ? (side == 0 ? g : nx - halo + g) : g;
          const int k = x_pass ? r : (side == 0 ? r : nz - halo + r);
          for (int v = 0; v < vars; ++v) buffer[buffer_index(box, side_size, side, v, g, r)] = field(v, k, i);
        }
      });
}

void unpack_halos(const Stream& stream, Direction direction, FieldView<double, 2> field, const double* buffer,
                  NeighbourSides sides) {
  const IndexBox box = message_box(direction, field.shape);
  const std::size_t side_size = halo_side_size(direction, field.shape);
  const bool x_pass = direction == Direction::x;
  const int nx = field.shape.nx, nz = field.shape.nz, halo = field.shape.halo, vars = field.shape.num_vars;
  parallel_for(
      x_pass ? "unpack_halos_x" : "unpack_halos_z", stream, box, SIMAPP_LAMBDA(int g, int r) {
        for (int side = 0; side < 2; ++side) {
          if (side == 0 ? !sides.low : !sides.high) continue;
          // The low side's ghosts come from the low neighbour's high-side message, and so on.
          const int i = x_pass ? (side == 0 ? g - halo : nx + g) : g;
          const int k = x_pass ? r : (side == 0 ? r - halo : nz + r);
          for (int v = 0; v < vars; ++v) field(v, k, i) = buffer[buffer_index(box, side_size, side, v, g, r)];
        }
      });
}

}  // namespace simapp
