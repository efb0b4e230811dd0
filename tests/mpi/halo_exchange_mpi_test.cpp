/// Halo exchange across ranks: every ghost cell must hold the value of the global cell it
/// mirrors (periodic in x), identified by a value that encodes the owner rank and the
/// global index; ghost rows beyond a wall are left alone. Run under mpiexec with 4 and 6 ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "kernels/physics/constants.hpp"
#include "solver/executor/eager_executor.hpp"
#include "solver/halo/halo_exchange.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

constexpr int nx = 13, nz = 10;  // uneven splits on every layout
constexpr double untouched = -1.0;

/// The rank owning global cell (i, k) of the decomposition.
int owner(const Decomposition& decomposition, int i, int k) {
  for (int r = 0; r < decomposition.size(); ++r) {
    const RankBox b = decomposition.box_of(r);
    if (i >= b.i_offset && i < b.i_offset + b.nx && k >= b.k_offset && k < b.k_offset + b.nz) return r;
  }
  return -1;
}

/// owner · 10⁶ + variable · 10⁵ + k · 100 + i: unique per cell and variable.
double encode(const Decomposition& decomposition, int v, int k, int i) {
  return owner(decomposition, i, k) * 1e6 + v * 1e5 + k * 100.0 + i;
}

class HaloExchangeMpiTest : public ::testing::TestWithParam<std::array<int, 2>> {};

TEST_P(HaloExchangeMpiTest, EveryGhostCellHoldsItsNeighboursValue) {
  const auto [px, pz] = GetParam();
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (px * pz != ranks) GTEST_SKIP() << px << " x " << pz << " needs " << px * pz << " ranks";

  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 1300.0, 1000.0}, ParallelSpec{{px, pz}});
  ASSERT_EQ(decomposition.px(), px);
  const RankBox box = decomposition.box();
  const FieldShape shape{box.nx, box.nz, numerics::halo_width, var::count};
  std::vector<double> values(shape.size(), untouched);
  const FieldView<double> field{values.data(), shape};
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int i = 0; i < box.nx; ++i) field(v, k, i) = encode(decomposition, v, box.k_offset + k, box.i_offset + i);

  // x exchange, then z exchange (whose rows carry the x ghosts into the corners).
  const Stream stream{Backend::host, nullptr, nullptr};
  const HaloExchange x(decomposition, Direction::x, shape, Backend::host, false);
  const HaloExchange z(decomposition, Direction::z, shape, Backend::host, false);
  StepProgram program;
  HaloExchange::add_ops(program, "x.", Direction::x, field, &x, false);
  HaloExchange::add_ops(program, "z.", Direction::z, field, &z, false);
  EagerExecutor(Synchronization::none).run(program, stream);

  const int halo = shape.halo;
  int checked = 0;
  for (int v = 0; v < var::count; ++v)
    for (int k = -halo; k < box.nz + halo; ++k)
      for (int i = -halo; i < box.nx + halo; ++i) {
        const bool ghost = i < 0 || i >= box.nx || k < 0 || k >= box.nz;
        if (!ghost) continue;
        const int global_k = box.k_offset + k;
        const int global_i = ((box.i_offset + i) % nx + nx) % nx;
        const double expected = global_k < 0 || global_k >= nz ? untouched  // beyond a wall
                                                               : encode(decomposition, v, global_k, global_i);
        ASSERT_EQ(field(v, k, i), expected) << "rank " << decomposition.rank() << " var " << v << " ghost (k=" << k
                                            << ", i=" << i << ")";
        ++checked;
      }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Layouts, HaloExchangeMpiTest,
                         ::testing::Values(std::array<int, 2>{2, 2}, std::array<int, 2>{4, 1},
                                           std::array<int, 2>{1, 4}, std::array<int, 2>{3, 2},
                                           std::array<int, 2>{2, 3}),
                         [](const auto& test_info) {
                           return std::to_string(test_info.param[0]) + "x" + std::to_string(test_info.param[1]);
                         });

}  // namespace
}  // namespace simapp
