#include "solver/decomposition/gather_state.hpp"

#include <algorithm>

#include "solver/grid/state_variables.hpp"

namespace simapp {

std::vector<int> message_sizes(std::size_t values, std::size_t largest) {
  std::vector<int> sizes(values / largest, static_cast<int>(largest));
  if (values % largest != 0) sizes.push_back(static_cast<int>(values % largest));
  return sizes;
}

namespace {

constexpr int gather_tag = 7;

/// The variables of the grid's state.
int variables_of(const GridSpec& grid) { return state_variables(grid).size(); }

std::size_t block_values(const RankBox& box, int variables) {
  return static_cast<std::size_t>(box.nx) * static_cast<std::size_t>(box.ny) * static_cast<std::size_t>(box.nz) *
         static_cast<std::size_t>(variables);
}

/// Copies a rank's block [var][k][j][i] of `variables` variables into its place in the global
/// array of `grid`'s cells.
void place_block(const RankBox& box, const double* block, const GridSpec& grid, int variables,
                 std::vector<double>& global) {
  const auto nx = static_cast<std::size_t>(grid.nx), ny = static_cast<std::size_t>(grid.ny);
  const auto nz = static_cast<std::size_t>(grid.nz);
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j, block += box.nx)
        std::copy_n(block, box.nx,
                    global.data() + ((v * nz + box.k_offset + k) * ny + box.j_offset + j) * nx + box.i_offset);
}

/// Gathers every rank's block [var][k][j][i] of `variables` variables over the cells of
/// `layer_box(rank's box)` into rank 0's array over `grid`'s cells.
template <class LayerBox>
std::vector<double> gather_blocks(const Decomposition& decomposition, std::span<const double> local,
                                  const GridSpec& grid, int variables, const LayerBox& layer_box,
                                  std::size_t largest_message) {
  const MPI_Comm comm = decomposition.comm();
  if (decomposition.rank() != 0) {
    std::size_t sent = 0;
    for (const int size : message_sizes(local.size(), largest_message)) {
      MPI_Send(local.data() + sent, size, MPI_DOUBLE, 0, gather_tag, comm);
      sent += static_cast<std::size_t>(size);
    }
    return {};
  }
  std::vector<double> global(block_values(RankBox{grid.nx, grid.nz, 0, 0, grid.ny, 0}, variables));
  place_block(layer_box(decomposition.box_of(0)), local.data(), grid, variables, global);
  std::vector<double> block;
  for (int r = 1; r < decomposition.size(); ++r) {
    const RankBox box = layer_box(decomposition.box_of(r));
    block.resize(block_values(box, variables));
    std::size_t received = 0;
    for (const int size : message_sizes(block.size(), largest_message)) {
      MPI_Recv(block.data() + received, size, MPI_DOUBLE, r, gather_tag, comm, MPI_STATUS_IGNORE);
      received += static_cast<std::size_t>(size);
    }
    place_block(box, block.data(), grid, variables, global);
  }
  return global;
}

}  // namespace

std::vector<double> gather_interior(const Decomposition& decomposition, std::span<const double> interior,
                                    std::size_t largest_message) {
  const GridSpec& grid = decomposition.global();
  return gather_blocks(
      decomposition, interior, grid, variables_of(grid), [](const RankBox& box) { return box; }, largest_message);
}

std::vector<double> gather_surface(const Decomposition& decomposition, std::span<const double> surface, int fields) {
  // The columns are the cells of one layer.
  GridSpec columns = decomposition.global();
  columns.nz = 1;
  return gather_blocks(
      decomposition, surface, columns, fields,
      [](RankBox box) {
        box.nz = 1;
        box.k_offset = 0;
        return box;
      },
      max_message_values);
}

}  // namespace simapp
