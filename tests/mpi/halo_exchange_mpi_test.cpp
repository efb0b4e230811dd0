/// Halo exchange across ranks: every ghost cell must hold the value of the global cell it
/// mirrors (periodic in x), identified by a value that encodes the owner rank and the
/// global index; ghost rows beyond a wall are left alone. MPI from host memory runs under
/// mpiexec with 2, 4 and 6 ranks; NCCL on the GPUs where each rank has a GPU of its own, also
/// inside the conditional WHILE body of a graph_loop graph.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/time/loop_clock.hpp"
#include "solver/executor/eager_runner.hpp"
#include "solver/executor/graph_loop.hpp"
#include "solver/executor/graph_runner.hpp"
#include "solver/halo/halo_exchange.hpp"
#include "solver/step/halo_ops.hpp"
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

/// This rank's field of `shape`: every interior cell its encoded value, every ghost cell untouched.
std::vector<double> encoded_field(const Decomposition& decomposition, const FieldShape<2>& shape) {
  const RankBox box = decomposition.box();
  std::vector<double> values(shape.size(), untouched);
  const FieldView<double, 2> field{values.data(), shape};
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int i = 0; i < box.nx; ++i) field(v, k, i) = encode(decomposition, v, box.k_offset + k, box.i_offset + i);
  return values;
}

struct Variant {
  std::array<int, 2> layout;
  HaloPath path;  ///< mpi on the host backend, or nccl on CUDA
};

/// Every ghost cell holds the encoded value of the global cell it mirrors (x periodic); rows
/// beyond a wall are untouched.
void expect_ghosts_hold_their_neighbours_values(const Decomposition& decomposition,
                                                FieldView<const double, 2> exchanged) {
  const RankBox box = decomposition.box();
  const int halo = exchanged.shape.halo;
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
        ASSERT_EQ(exchanged(v, k, i), expected)
            << "rank " << decomposition.rank() << " var " << v << " ghost (k=" << k << ", i=" << i << ")";
        ++checked;
      }
  EXPECT_GT(checked, 0);
}

class HaloExchangeMpiTest : public ::testing::TestWithParam<Variant> {};

/// Runs the x exchange, then the z exchange (whose rows carry the x ghosts into the corners),
/// on `values` (host memory) with the variant's path and backend, by `mode`'s executor; a
/// graph is replayed once more, on the values of its first run, which must change nothing.
void exchange_halos(const Decomposition& decomposition, const FieldShape<2>& shape, std::vector<double>& values,
                    HaloPath path, ExecutionMode mode) {
  const Backend backend = path == HaloPath::nccl ? Backend::cuda : Backend::host;
  const Stream stream = device::create_stream(backend);
  DeviceBuffer<double> device_values(backend, values.size());
  device::copy_async(stream, device_values.data(), values.data(), values.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  const FieldView<double, 2> field{device_values.data(), shape};
  {
    std::unique_ptr<NcclCommunicator> nccl;
    if (path == HaloPath::nccl) nccl = std::make_unique<NcclCommunicator>(decomposition.comm());
    const HaloExchange x(decomposition, Direction::x, shape, backend, path, nccl.get());
    const HaloExchange z(decomposition, Direction::z, shape, backend, path, nccl.get());
    StepProgram program;
    add_halo_ops(program, "x.", field, &x, path);
    add_halo_ops(program, "z.", field, &z, path);
    std::unique_ptr<ProgramRunner> runner;
    if (mode == ExecutionMode::graph)
      runner = std::make_unique<GraphRunner>();
    else
      runner = std::make_unique<EagerRunner>(Synchronization::none);
    runner->run(program, stream);
    if (mode == ExecutionMode::graph) runner->run(program, stream);
    values = device_values.copy_to_host(stream);
  }
  device::destroy_stream(stream);
}

TEST_P(HaloExchangeMpiTest, EveryGhostCellHoldsItsNeighboursValue) {
  const auto [px, pz] = GetParam().layout;
  const HaloPath path = GetParam().path;
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (px * pz != ranks) GTEST_SKIP() << px << " x " << pz << " needs " << px * pz << " ranks";
  if (path == HaloPath::nccl) {
    if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
    if (device::device_count() < ranks)
      GTEST_SKIP() << "NCCL needs a GPU per rank: " << ranks << " ranks, " << device::device_count() << " GPU(s)";
    device::select_device(rank);
  }

  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 1300.0, 1000.0}, ParallelSpec{{px, 1, pz}});
  ASSERT_EQ(decomposition.px(), px);
  const RankBox box = decomposition.box();
  const FieldShape<2> shape{box.nx, 1, box.nz, numerics::halo_width, var::count};
  for (const ExecutionMode mode : {ExecutionMode::eager, ExecutionMode::graph}) {
    SCOPED_TRACE(std::string(to_string(mode)));
    std::vector<double> values = encoded_field(decomposition, shape);
    exchange_halos(decomposition, shape, values, path, mode);
    expect_ghosts_hold_their_neighbours_values(decomposition, FieldView<const double, 2>{values.data(), shape});
  }
}

/// The NCCL exchange inside a conditional WHILE body, as graph_loop captures a step's: a body
/// that exchanges the x halos and counts a pass, launched for three passes, instantiates, runs
/// three times and leaves every ghost cell holding its neighbour's value. (With NCCL's default
/// graph support, NCCL_GRAPH_MIXING_SUPPORT=1, the captured calls bring event nodes that a
/// conditional body may not hold, and the instantiation fails.)
TEST(NcclLoopGraphTest, AnExchangeRunsInTheBodyOfAWhileLoop_nccl) {
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
  if (device::device_count() < ranks)
    GTEST_SKIP() << "NCCL needs a GPU per rank: " << ranks << " ranks, " << device::device_count() << " GPU(s)";
  device::select_device(rank);

  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 1300.0, 1000.0}, ParallelSpec{{ranks, 1, 1}});
  const RankBox box = decomposition.box();
  const FieldShape<2> shape{box.nx, 1, box.nz, numerics::halo_width, var::count};
  std::vector<double> values = encoded_field(decomposition, shape);

  const Stream stream = device::create_stream(Backend::cuda);
  std::vector<LoopClock> clock_after;
  {
    DeviceBuffer<double> device_values(Backend::cuda, values.size());
    device::copy_async(stream, device_values.data(), values.data(), values.size() * sizeof(double),
                       device::CopyDirection::host_to_device);
    DeviceBuffer<LoopClock> clock(Backend::cuda, 1);
    set_loop_clock(stream, clock.data(), 0);
    const NcclCommunicator nccl(decomposition.comm());
    const HaloExchange x(decomposition, Direction::x, shape, Backend::cuda, HaloPath::nccl, &nccl);
    LoopControl control{clock.data(), {}, 0};
    StepProgram body;
    add_halo_ops(body, "x.", FieldView<double, 2>{device_values.data(), shape}, &x, HaloPath::nccl);
    body.add(OpKind::kernel, "count_pass",
             [&control](const Stream& on) { count_loop_steps(on, control.clock, 1, nullptr, control.condition); });
    CaptureTiming timing;
    const GraphLoop loop(body, control, stream, timing);
    set_loop_target(stream, clock.data(), 3);
    loop.launch(stream);
    values = device_values.copy_to_host(stream);
    clock_after = clock.copy_to_host(stream);
  }
  device::destroy_stream(stream);
  EXPECT_EQ(clock_after.at(0).completed, 3);
  expect_ghosts_hold_their_neighbours_values(decomposition, FieldView<const double, 2>{values.data(), shape});
}

constexpr std::array<int, 2> layouts[] = {{1, 1}, {2, 1}, {2, 2}, {4, 1}, {1, 4}, {3, 2}, {2, 3}};

std::vector<Variant> variants() {
  std::vector<Variant> all;
  for (const HaloPath path : {HaloPath::mpi, HaloPath::nccl})
    for (const auto& layout : layouts) all.push_back({layout, path});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Layouts, HaloExchangeMpiTest, ::testing::ValuesIn(variants()), [](const auto& test_info) {
  const Variant& variant = test_info.param;
  return std::to_string(variant.layout[0]) + "x" + std::to_string(variant.layout[1]) +
         (variant.path == HaloPath::nccl ? "_nccl" : "_mpi");
});

}  // namespace
}  // namespace simapp
