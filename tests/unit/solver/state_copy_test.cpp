/// The host copy of the state outputs are written from (solver/simulation/state_copy.hpp): it
/// holds exactly the interior cells of every variable, [var][k][i], without the halos, and on the
/// host backend a new copy writes the buffer the last one was collected into.
#include "solver/simulation/state_copy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simapp {
namespace {

/// A value that names its cell: variable, row and column, halos included (negative there).
double cell_code(int var, int k, int i) { return var * 1e6 + (k + 10) * 1e3 + (i + 10); }

TEST(StateCopyTest, HoldsTheInteriorOfEveryVariableWithoutTheHalos) {
  const FieldShape<2> shape{5, 1, 3, 2, 4};
  std::vector<double> state(shape.size());
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = -shape.halo; k < shape.nz + shape.halo; ++k)
      for (int i = -shape.halo; i < shape.nx + shape.halo; ++i) state[shape.offset(v, k, i)] = cell_code(v, k, i);
  StateCopy copy(Backend::host, interior_layout(shape));
  EXPECT_TRUE(copy.overwrites_collected());
  copy.begin(Stream{}, state.data());
  const std::span<const double> interior = copy.collect();
  ASSERT_EQ(interior.size(), static_cast<std::size_t>(shape.num_vars * shape.nz * shape.nx));
  std::size_t n = 0;
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int i = 0; i < shape.nx; ++i) EXPECT_EQ(interior[n++], cell_code(v, k, i)) << v << " " << k << " " << i;
  EXPECT_EQ(StateCopy::bytes_needed(Backend::host, interior_layout(shape)), interior.size() * sizeof(double));
  EXPECT_EQ(StateCopy::bytes_needed(Backend::cuda, interior_layout(shape)), 2 * interior.size() * sizeof(double))
      << "on CUDA a staging buffer on the GPU too";

  state[shape.offset(2, 1, 3)] = -1.0;
  copy.begin(Stream{}, state.data());
  EXPECT_EQ(interior[2 * 15 + 1 * 5 + 3], -1.0) << "the host backend writes the collected buffer";
}

TEST(StateCopyTest, HoldsTheInteriorOfA3dStateLayerByLayer) {
  const FieldShape<3> shape{4, 3, 2, 2, 5};
  std::vector<double> state(shape.size(), -7.0);  // halos
  const auto code = [](int v, int k, int j, int i) { return v * 1e6 + k * 1e4 + j * 1e2 + i; };
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int j = 0; j < shape.ny; ++j)
        for (int i = 0; i < shape.nx; ++i) state[shape.offset(v, k, j, i)] = code(v, k, j, i);
  StateCopy copy(Backend::host, interior_layout(shape));
  copy.begin(Stream{}, state.data());
  const std::span<const double> interior = copy.collect();
  ASSERT_EQ(interior.size(), std::size_t{5 * 2 * 3 * 4});
  std::size_t n = 0;
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int j = 0; j < shape.ny; ++j)
        for (int i = 0; i < shape.nx; ++i) EXPECT_EQ(interior[n++], code(v, k, j, i)) << v << k << j << i;

  const std::vector<double> padded = padded_from(interior_layout(shape), interior);
  for (std::size_t c = 0; c < padded.size(); ++c)
    EXPECT_EQ(padded[c], state[c] == -7.0 ? 0.0 : state[c]) << "the interior in place, zeros in the halos";
}

}  // namespace
}  // namespace simapp
