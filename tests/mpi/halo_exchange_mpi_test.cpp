/// Halo exchange across ranks, for the model in either dimension: every ghost cell a message
/// reaches must hold the value of the global cell it mirrors (periodic in x, and in y in 3-D),
/// identified by a value that encodes the owner rank and the global index; ghost rows beyond a
/// wall are left alone, and so are the 3-D corner cells (ghost along two axes), which no message
/// carries, while the 2-D z message carries the x ghosts into the corners. MPI from host memory
/// runs under mpiexec with 2, 4 and 6 ranks; NCCL on the GPUs where each rank has a GPU of its
/// own, also inside the conditional WHILE body of a graph_loop graph.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
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

constexpr int nx = 13, ny = 11, nz = 10;  // uneven splits on every layout (ny: the 3-D model's)
constexpr double untouched = -1.0;

/// The global grid of the model in `dims` dimensions.
GridSpec grid_of(int dims) {
  return dims == 3 ? GridSpec{nx, nz, 1300.0, 1000.0, ny, 1100.0} : GridSpec{nx, nz, 1300.0, 1000.0};
}

/// The rank owning global cell (i, j, k) of the decomposition (2-D: j = 0).
int owner(const Decomposition& decomposition, int i, int j, int k) {
  for (int r = 0; r < decomposition.size(); ++r) {
    const RankBox b = decomposition.box_of(r);
    if (i >= b.i_offset && i < b.i_offset + b.nx && j >= b.j_offset && j < b.j_offset + b.ny && k >= b.k_offset &&
        k < b.k_offset + b.nz)
      return r;
  }
  return -1;
}

/// owner · 10⁶ + variable · 10⁵ + j · 1000 + k · 100 + i: unique per cell and variable.
double encode(const Decomposition& decomposition, int v, int k, int j, int i) {
  return owner(decomposition, i, j, k) * 1e6 + v * 1e5 + j * 1000.0 + k * 100.0 + i;
}

/// This rank's fields: interior cells [0, n) of each axis, ghost cells around them (2-D: no y ghosts).
template <int Dims>
FieldShape<Dims> rank_shape(const Decomposition& decomposition) {
  const RankBox box = decomposition.box();
  return {box.nx, box.ny, box.nz, numerics::halo_width, ModelVariables<Dims>::count};
}

/// f(v, k, j, i, ghost_axes) for every cell of `shape` (2-D: j = 0), with the number of axes along
/// which the cell is a ghost.
template <int Dims, class F>
void for_each_cell(const FieldShape<Dims>& shape, const F& f) {
  const int halo = shape.halo, halo_y = shape.halo_y();
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = -halo; k < shape.nz + halo; ++k)
      for (int j = -halo_y; j < shape.ny + halo_y; ++j)
        for (int i = -halo; i < shape.nx + halo; ++i) {
          const int ghost_axes = (i < 0 || i >= shape.nx) + (j < 0 || j >= shape.ny) + (k < 0 || k >= shape.nz);
          f(v, k, j, i, ghost_axes);
        }
}

/// This rank's field of `shape`: every interior cell its encoded value, every ghost cell untouched.
template <int Dims>
std::vector<double> encoded_field(const Decomposition& decomposition, const FieldShape<Dims>& shape) {
  const RankBox box = decomposition.box();
  std::vector<double> values(shape.size(), untouched);
  const FieldView<double, Dims> field{values.data(), shape};
  for_each_cell(shape, [&](int v, int k, int j, int i, int ghost_axes) {
    if (ghost_axes == 0)
      field(v, k, j, i) = encode(decomposition, v, box.k_offset + k, box.j_offset + j, box.i_offset + i);
  });
  return values;
}

struct Variant {
  int dims = 2;               ///< the model's dimensions
  std::array<int, 3> layout;  ///< px, py, pz (2-D: py = 1)
  HaloPath path;              ///< mpi on the host backend, or nccl on CUDA
};

/// Every ghost cell holds the encoded value of the global cell it mirrors (x, y periodic); rows
/// beyond a wall are untouched, and so are the 3-D corners (ghost along more than one axis).
template <int Dims>
void expect_ghosts_hold_their_neighbours_values(const Decomposition& decomposition,
                                                FieldView<const double, Dims> exchanged) {
  const RankBox box = decomposition.box();
  int checked = 0;
  for_each_cell(exchanged.shape, [&](int v, int k, int j, int i, int ghost_axes) {
    if (ghost_axes == 0 || ::testing::Test::HasFatalFailure()) return;
    const int global_k = box.k_offset + k;
    const int global_j = ((box.j_offset + j) % ny + ny) % ny;
    const int global_i = ((box.i_offset + i) % nx + nx) % nx;
    const bool in_no_message = Dims == 3 && ghost_axes > 1;
    const double expected = global_k < 0 || global_k >= nz || in_no_message  // beyond a wall, or a 3-D corner
                                ? untouched
                                : encode(decomposition, v, global_k, global_j, global_i);
    ASSERT_EQ(exchanged(v, k, j, i), expected)
        << "rank " << decomposition.rank() << " var " << v << " ghost (k=" << k << ", j=" << j << ", i=" << i << ")";
    ++checked;
  });
  EXPECT_GT(checked, 0);
}

/// The directions whose halos the model in `Dims` dimensions exchanges, in order.
template <int Dims>
std::vector<Direction> exchanged_directions() {
  if (Dims == 3) return {Direction::x, Direction::y, Direction::z};
  return {Direction::x, Direction::z};
}

class HaloExchangeMpiTest : public ::testing::TestWithParam<Variant> {};

/// Runs the x exchange, then (3-D) the y exchange, then the z exchange (whose 2-D rows carry the
/// x ghosts into the corners), on `values` (host memory) with the variant's path and backend, by
/// `mode`'s executor; a graph is replayed once more, on the values of its first run, which must
/// change nothing.
template <int Dims>
void exchange_halos(const Decomposition& decomposition, const FieldShape<Dims>& shape, std::vector<double>& values,
                    HaloPath path, ExecutionMode mode) {
  const Backend backend = path == HaloPath::nccl ? Backend::cuda : Backend::host;
  const Stream stream = device::create_stream(backend);
  DeviceBuffer<double> device_values(backend, values.size());
  device::copy_async(stream, device_values.data(), values.data(), values.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  const FieldView<double, Dims> field{device_values.data(), shape};
  {
    std::unique_ptr<NcclCommunicator> nccl;
    if (path == HaloPath::nccl) nccl = std::make_unique<NcclCommunicator>(decomposition.comm());
    std::vector<std::unique_ptr<HaloExchange>> exchanges;
    StepProgram program;
    for (const Direction direction : exchanged_directions<Dims>()) {
      exchanges.push_back(std::make_unique<HaloExchange>(decomposition, direction, shape, backend, path, nccl.get(),
                                                         Precision::float64));
      const std::string prefix = direction == Direction::x ? "x." : direction == Direction::y ? "y." : "z.";
      add_halo_ops(program, prefix, field, exchanges.back().get(), path);
    }
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

template <int Dims>
void expect_every_ghost_cell_holds_its_neighbours_value(const Decomposition& decomposition, HaloPath path) {
  const FieldShape<Dims> shape = rank_shape<Dims>(decomposition);
  for (const ExecutionMode mode : {ExecutionMode::eager, ExecutionMode::graph}) {
    SCOPED_TRACE(std::string(to_string(mode)));
    std::vector<double> values = encoded_field(decomposition, shape);
    exchange_halos(decomposition, shape, values, path, mode);
    expect_ghosts_hold_their_neighbours_values(decomposition, FieldView<const double, Dims>{values.data(), shape});
  }
}

TEST_P(HaloExchangeMpiTest, EveryGhostCellHoldsItsNeighboursValue) {
  const auto [px, py, pz] = GetParam().layout;
  const HaloPath path = GetParam().path;
  const int dims = GetParam().dims;
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (px * py * pz != ranks) GTEST_SKIP() << px << " x " << py << " x " << pz << " needs " << px * py * pz << " ranks";
  if (path == HaloPath::nccl) {
    if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
    if (device::device_count() < ranks)
      GTEST_SKIP() << "NCCL needs a GPU per rank: " << ranks << " ranks, " << device::device_count() << " GPU(s)";
    device::select_device(rank);
  }

  const Decomposition decomposition(MPI_COMM_WORLD, grid_of(dims), ParallelSpec{{px, py, pz}});
  ASSERT_EQ(decomposition.px(), px);
  ASSERT_EQ(decomposition.py(), py);
  if (dims == 3)
    expect_every_ghost_cell_holds_its_neighbours_value<3>(decomposition, path);
  else
    expect_every_ghost_cell_holds_its_neighbours_value<2>(decomposition, path);
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

  const Decomposition decomposition(MPI_COMM_WORLD, grid_of(2), ParallelSpec{{ranks, 1, 1}});
  const FieldShape<2> shape = rank_shape<2>(decomposition);
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
    const HaloExchange x(decomposition, Direction::x, shape, Backend::cuda, HaloPath::nccl, &nccl, Precision::float64);
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

/// px × pz ranks of the 2-D model, px × py × pz of the 3-D model.
constexpr std::array<int, 3> layouts_2d[] = {{1, 1, 1}, {2, 1, 1}, {2, 1, 2}, {4, 1, 1},
                                             {1, 1, 4}, {3, 1, 2}, {2, 1, 3}};
constexpr std::array<int, 3> layouts_3d[] = {{1, 1, 1}, {1, 2, 1}, {2, 2, 1}, {1, 2, 2},
                                             {2, 1, 2}, {3, 2, 1}, {1, 2, 3}};

std::vector<Variant> variants() {
  std::vector<Variant> all;
  for (const HaloPath path : {HaloPath::mpi, HaloPath::nccl}) {
    for (const auto& layout : layouts_2d) all.push_back({2, layout, path});
    for (const auto& layout : layouts_3d) all.push_back({3, layout, path});
  }
  return all;
}

/// "2x1_mpi" (2-D: px x pz), "1x2x2_nccl" (3-D: px x py x pz).
std::string variant_name(const Variant& variant) {
  const auto [px, py, pz] = variant.layout;
  const std::string layout = variant.dims == 3
                                 ? std::to_string(px) + "x" + std::to_string(py) + "x" + std::to_string(pz)
                                 : std::to_string(px) + "x" + std::to_string(pz);
  return layout + (variant.path == HaloPath::nccl ? "_nccl" : "_mpi");
}

INSTANTIATE_TEST_SUITE_P(Layouts, HaloExchangeMpiTest, ::testing::ValuesIn(variants()),
                         [](const auto& test_info) { return variant_name(test_info.param); });

}  // namespace
}  // namespace simapp
