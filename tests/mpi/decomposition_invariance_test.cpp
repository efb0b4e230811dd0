/// Fields and diagnostics do not depend on the decomposition, in 2-D and in 3-D: a run on every
/// rank of the job, gathered on rank 0, equals bit for bit the same case run by rank 0 alone
/// (eager, stage granularity), for each layout of the job's ranks (2-D: the automatic px × pz and
/// its transpose; 3-D: every px × py × pz of the rank count, 1 = 2 × 2 × 1 = 1 × 3 × 1 = 2 × 1 × 2
/// …); eager, eager_streams, graph, graph_loop (CUDA, NCCL halos or one rank) and persistent
/// (CUDA, one rank) execution, overlapped and sequential halo exchanges (the cells that read no
/// ghost updated while halos travel), halos by MPI and by NCCL, and every granularity with the
/// fused one agree bit for bit too. Run under mpiexec with 1, 2, 3, 4 and 6 ranks; the CUDA
/// variants run where a GPU is visible, the NCCL ones where every rank has a GPU of its own (label
/// gpu); some variants in float32 (execution.precision), whose halos carry floats.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "foundation/error.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/mpi_world.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::bitwise_equal;
using testing::world_rank;
using testing::world_size;

/// parallel.ranks: px × py × pz, 0 where MPI_Dims_create chooses (py = 1 in 2-D).
using Layout = std::array<int, 3>;

/// One case of the model in `dims` dimensions, its granularity, backend, halo transport and
/// precision (execution.precision: the halos carry the state's type).
struct Variant {
  int dims;
  CaseName name;
  Granularity granularity;
  Backend backend;
  HaloTransport halo = HaloTransport::mpi;
  Precision precision = Precision::float64;
};

/// One distributed run of a variant: its mode, its halo overlap and the transport of its halos.
struct DistributedRun {
  ExecutionMode mode;
  HaloOverlap overlap;
  HaloTransport halo;
};

struct Outcome {
  std::vector<double> state;  ///< global interior state on rank 0
  RunResult result;
};

/// `name` on 61 × 30 cells (uneven splits) for 20.5 dt.
RunSpec spec_2d(CaseName name) {
  RunSpec spec = testing::small_case(name, 61, 30, 1.0);
  spec.time.sim_time = 20.5 * TimeStepping(1.0, spec.grid.xlen / 61, spec.grid.zlen / 30, spec.time.cfl).dt();
  if (name == CaseName::straka)
    spec.physics.viscosity = spec.physics.diffusivity = 2000.0;  // diffusion across ranks too
  return spec;
}

/// `name` on 18 × 11 × 9 cells (uneven splits) of 1 km × 1 km × 1.1 km for 12.5 dt, four steps a
/// graph, its bubble off the centre in x and y.
RunSpec spec_3d(CaseName name) {
  RunSpec spec = testing::small_case(name, 18, 9, 1.0);
  spec.grid.xlen = 18000.0;
  spec.grid.ny = 11;
  spec.grid.ylen = 11000.0;
  if (name == CaseName::straka)
    spec.physics.viscosity = spec.physics.diffusivity = 200.0;  // diffusion across ranks too
  if (name == CaseName::thermal) {
    spec.perturbation.center = {7000.0, 4500.0, 3000.0};
    spec.perturbation.radii = {3000.0, 2500.0, 2000.0};
  }
  spec.time.sim_time = 12.5 * TimeStepping(1.0, 1000.0, spec.grid.zlen / 9, spec.time.cfl, spec.physics.viscosity).dt();
  spec.execution.steps_per_graph = 4;
  return spec;
}

/// The case of `variant`'s dimension at `granularity` on `layout`, its last step shortened; a
/// case that starts with water with the microphysics, every second step (the last step's call
/// then integrates over one step).
RunSpec spec_for(const Variant& variant, Granularity granularity, const Layout& layout) {
  RunSpec spec = variant.dims == 2 ? spec_2d(variant.name) : spec_3d(variant.name);
  spec.execution.granularity = granularity;
  spec.execution.precision = variant.precision;
  spec.parallel.ranks = layout;
  if (carries_water(variant.name)) {
    spec.grid.microphysics = Microphysics::kessler;
    spec.moisture.every = 2;
  }
  return spec;
}

/// The layouts of `ranks` ranks a dimension's runs take. 2-D: the automatic one and, when it
/// differs, the transposed explicit one; 3-D: each explicit one that keeps at least two cells a
/// rank in each direction.
std::vector<Layout> layouts_of(int dims, int ranks) {
  if (dims == 2) {
    std::vector<Layout> layouts{{0, 1, 0}};
    int automatic[2] = {0, 0};
    MPI_Dims_create(ranks, 2, automatic);
    if (automatic[0] != automatic[1]) layouts.push_back({automatic[1], 1, automatic[0]});
    return layouts;
  }
  const std::vector<Layout> all{{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {1, 3, 1}, {3, 1, 1}, {2, 2, 1},
                                {2, 1, 2}, {1, 1, 4}, {1, 4, 1}, {1, 3, 2}, {3, 2, 1}, {2, 3, 1}};
  std::vector<Layout> of;
  for (const Layout& layout : all)
    if (layout[0] * layout[1] * layout[2] == ranks) of.push_back(layout);
  return of;
}

/// The layouts of `ranks` ranks a case's runs take: with water, those of whole columns (pz = 1) alone.
std::vector<Layout> layouts_of(int dims, int ranks, bool water) {
  std::vector<Layout> layouts = layouts_of(dims, ranks);
  if (water) std::erase_if(layouts, [](const Layout& layout) { return layout[2] > 1; });
  return layouts;
}

/// 2-D: every mode of the backend at its granularity with overlapped halos, graph without
/// overlap, graph with halos by MPI beside those by NCCL, and graph_loop where steps need no
/// host op (NCCL halos, or one rank).
std::vector<DistributedRun> runs_2d(const Variant& variant, int ranks) {
  const bool cuda = variant.backend == Backend::cuda;
  std::vector<DistributedRun> runs{{ExecutionMode::graph, HaloOverlap::on, variant.halo},
                                   {ExecutionMode::eager, HaloOverlap::on, variant.halo}};
  if (cuda) runs.push_back({ExecutionMode::eager_streams, HaloOverlap::on, variant.halo});  // the host has one stream
  runs.push_back({ExecutionMode::graph, HaloOverlap::off, variant.halo});
  if (variant.halo == HaloTransport::nccl) runs.push_back({ExecutionMode::graph, HaloOverlap::on, HaloTransport::mpi});
  if (cuda && (variant.halo == HaloTransport::nccl || ranks == 1))
    runs.push_back({ExecutionMode::graph_loop, HaloOverlap::on, variant.halo});
  return runs;
}

/// 3-D: the overlaps and modes each granularity runs. Halos by MPI: both overlaps, the eager and
/// graph modes. Halos by NCCL (device work, so a step needs no host op): every mode that runs more
/// than one rank, graph_loop included.
std::vector<DistributedRun> runs_3d(const Variant& variant) {
  struct Row {
    Granularity granularity;
    HaloOverlap overlap;
    ExecutionMode mode;
  };
  const std::vector<Row> by_mpi{{Granularity::stage, HaloOverlap::on, ExecutionMode::eager},
                                {Granularity::stage, HaloOverlap::on, ExecutionMode::graph},
                                {Granularity::stage, HaloOverlap::off, ExecutionMode::graph},
                                {Granularity::fused, HaloOverlap::on, ExecutionMode::graph},
                                {Granularity::fused, HaloOverlap::off, ExecutionMode::eager},
                                {Granularity::fine, HaloOverlap::on, ExecutionMode::graph},
                                {Granularity::pass, HaloOverlap::on, ExecutionMode::graph}};
  const std::vector<Row> by_nccl{{Granularity::stage, HaloOverlap::on, ExecutionMode::eager},
                                 {Granularity::stage, HaloOverlap::on, ExecutionMode::eager_streams},
                                 {Granularity::stage, HaloOverlap::on, ExecutionMode::graph},
                                 {Granularity::stage, HaloOverlap::on, ExecutionMode::graph_loop},
                                 {Granularity::fused, HaloOverlap::on, ExecutionMode::graph},
                                 {Granularity::fine, HaloOverlap::on, ExecutionMode::graph},
                                 {Granularity::pass, HaloOverlap::on, ExecutionMode::graph_loop}};
  std::vector<DistributedRun> runs;
  for (const Row& row : variant.halo == HaloTransport::nccl ? by_nccl : by_mpi)
    if (row.granularity == variant.granularity) runs.push_back({row.mode, row.overlap, variant.halo});
  return runs;
}

/// Steps between progress reports, which cut a run into spans (0: one span). graph_loop runs in
/// one span, so that its loop graph (a body of a multiple of check_every, 10, steps) runs: spans
/// of 7 steps would be run by chunks alone.
int progress_every(int dims, ExecutionMode mode) { return dims == 2 && mode != ExecutionMode::graph_loop ? 7 : 0; }

Outcome run(const Variant& variant, const RunSpec& spec, ExecutionMode mode, MPI_Comm comm) {
  const Decomposition decomposition(comm, spec.grid, spec.parallel);
  Simulation simulation(spec, variant.backend, mode, decomposition);
  const RunResult result = run_to_end(simulation, progress_every(variant.dims, mode), [](const ProgressReport&) {});
  return {simulation.gathered_state(), result};
}

/// `variant`'s case at `granularity` run by this rank alone in `mode`, run once for all the
/// tests that compare with it.
const Outcome& alone(const Variant& variant, Granularity granularity, ExecutionMode mode) {
  static std::map<std::tuple<int, CaseName, Granularity, Backend, ExecutionMode, Precision>, Outcome> runs;
  const auto key = std::make_tuple(variant.dims, variant.name, granularity, variant.backend, mode, variant.precision);
  if (!runs.contains(key))
    runs.emplace(key, run(variant, spec_for(variant, granularity, {1, 1, 1}), mode, MPI_COMM_SELF));
  return runs.at(key);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string describe(const Variant& variant, const DistributedRun& run, const Layout& layout) {
  return std::to_string(variant.dims) + "-D " + std::string(to_string(variant.name)) + " (" +
         std::string(to_string(variant.granularity)) + ", overlap " +
         std::string(name_in(halo_overlap_names, run.overlap)) + ", " + std::string(to_string(run.mode)) +
         ", halos by " + std::string(to_string(run.halo)) + ") on " + std::to_string(world_size()) + " ranks as [" +
         std::to_string(layout[0]) + ", " + std::to_string(layout[1]) + ", " + std::to_string(layout[2]) + "]";
}

class DecompositionInvarianceTest : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    if (GetParam().backend == Backend::cuda && device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
    if (GetParam().halo == HaloTransport::nccl) {
      if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
      if (device::device_count() < world_size())
        GTEST_SKIP() << "NCCL needs a GPU per rank: " << world_size() << " ranks, " << device::device_count()
                     << " GPU(s)";
    }
    if (GetParam().backend == Backend::cuda) device::select_device(world_rank() % device::device_count());
  }
};

TEST_P(DecompositionInvarianceTest, DistributedRunEqualsSerialRunBitForBit) {
  const Variant variant = GetParam();
  const std::vector<DistributedRun> runs = variant.dims == 2 ? runs_2d(variant, world_size()) : runs_3d(variant);
  for (const Layout& layout : layouts_of(variant.dims, world_size(), carries_water(variant.name)))
    for (const DistributedRun& each : runs) {
      RunSpec spec = spec_for(variant, variant.granularity, layout);
      spec.parallel.overlap = each.overlap;
      spec.parallel.halo = each.halo;
      const Outcome distributed = run(variant, spec, each.mode, MPI_COMM_WORLD);
      if (world_rank() != 0) continue;
      const Outcome& reference = alone(variant, Granularity::stage, ExecutionMode::eager);
      const std::string where = describe(variant, each, layout);
      EXPECT_TRUE(bitwise_equal(distributed.state, reference.state)) << where;
      EXPECT_TRUE(same_bits(distributed.result.change.mass, reference.result.change.mass)) << where << ": d_mass";
      EXPECT_TRUE(same_bits(distributed.result.change.total_energy, reference.result.change.total_energy))
          << where << ": d_te";
    }
  if (world_rank() != 0) return;
  const Outcome& reference = alone(variant, Granularity::stage, ExecutionMode::eager);
  if (variant.granularity != Granularity::fused) {
    EXPECT_TRUE(bitwise_equal(alone(variant, Granularity::fused, ExecutionMode::graph).state, reference.state))
        << "fused, graph, on one rank";
  }
  if (variant.backend == Backend::cuda && variant.granularity == Granularity::stage &&
      !carries_water(variant.name)) {  // one rank only; persistent refuses water
    EXPECT_TRUE(bitwise_equal(alone(variant, Granularity::stage, ExecutionMode::persistent).state, reference.state))
        << "persistent on one rank";
  }
}

/// Each dimension's variants: 2-D, chosen cases and granularities on each backend; 3-D, every
/// granularity of thermal, injection and straka on each backend.
std::vector<Variant> variants() {
  std::vector<Variant> all{{2, CaseName::moist_thermal, Granularity::stage, Backend::host},
                           {2, CaseName::moist_thermal, Granularity::fine, Backend::host},
                           {3, CaseName::moist_thermal, Granularity::fused, Backend::host},
                           {3, CaseName::moist_thermal, Granularity::pass, Backend::host},
                           {2, CaseName::moist_thermal, Granularity::fused, Backend::cuda},
                           {3, CaseName::moist_thermal, Granularity::stage, Backend::cuda},
                           {2, CaseName::moist_thermal, Granularity::stage, Backend::cuda, HaloTransport::nccl},
                           {2, CaseName::thermal, Granularity::fused, Backend::host},
                           {2, CaseName::injection, Granularity::fused, Backend::host},
                           {2, CaseName::injection, Granularity::fine, Backend::host},
                           {2, CaseName::injection, Granularity::stage, Backend::host},
                           {2, CaseName::gravity_waves, Granularity::stage, Backend::host},
                           {2, CaseName::straka, Granularity::fine, Backend::host},
                           {2, CaseName::straka, Granularity::stage, Backend::host},
                           {2, CaseName::thermal, Granularity::pass, Backend::host},
                           {2, CaseName::thermal, Granularity::fused, Backend::cuda},
                           {2, CaseName::injection, Granularity::fine, Backend::cuda},
                           {2, CaseName::injection, Granularity::stage, Backend::cuda},
                           {2, CaseName::thermal, Granularity::pass, Backend::cuda},
                           {2, CaseName::thermal, Granularity::fused, Backend::cuda, HaloTransport::nccl},
                           {2, CaseName::injection, Granularity::fused, Backend::cuda, HaloTransport::nccl},
                           {2, CaseName::injection, Granularity::fine, Backend::cuda, HaloTransport::nccl},
                           {2, CaseName::injection, Granularity::stage, Backend::cuda, HaloTransport::nccl}};
  // float32: the halos carry floats (MPI_FLOAT, NCCL's bytes) on either backend, water included.
  constexpr Precision single = Precision::float32;
  for (const Backend backend : {Backend::host, Backend::cuda}) {
    all.push_back({2, CaseName::injection, Granularity::fused, backend, HaloTransport::mpi, single});
    all.push_back({2, CaseName::moist_thermal, Granularity::stage, backend, HaloTransport::mpi, single});
    all.push_back({3, CaseName::thermal, Granularity::pass, backend, HaloTransport::mpi, single});
    all.push_back({3, CaseName::straka, Granularity::fine, backend, HaloTransport::mpi, single});
  }
  all.push_back({2, CaseName::injection, Granularity::fused, Backend::cuda, HaloTransport::nccl, single});
  all.push_back({3, CaseName::moist_thermal, Granularity::stage, Backend::cuda, HaloTransport::nccl, single});
  const std::vector<std::pair<Backend, HaloTransport>> paths{
      {Backend::host, HaloTransport::mpi}, {Backend::cuda, HaloTransport::mpi}, {Backend::cuda, HaloTransport::nccl}};
  for (const auto& [backend, halo] : paths)
    for (const CaseName name : {CaseName::thermal, CaseName::injection, CaseName::straka})
      for (const Granularity granularity :
           {Granularity::stage, Granularity::fused, Granularity::fine, Granularity::pass})
        all.push_back({3, name, granularity, backend, halo});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Cases, DecompositionInvarianceTest, ::testing::ValuesIn(variants()),
                         [](const auto& test_info) {  // ends with the backend (and _nccl): the ctest filters
                           const Variant& variant = test_info.param;
                           return std::to_string(variant.dims) + "d_" + std::string(to_string(variant.name)) + "_" +
                                  std::string(to_string(variant.granularity)) + "_" +
                                  (variant.precision == Precision::float32 ? std::string("float32_") : std::string()) +
                                  std::string(to_string(variant.backend)) +
                                  (variant.halo == HaloTransport::nccl ? std::string("_nccl") : std::string());
                         });

class RankBoxTest : public ::testing::TestWithParam<int> {};

/// The ranks' boxes of each layout the test takes cover the grid, each cell once, inside y's
/// cells.
TEST_P(RankBoxTest, ARankBoxTilesTheGrid) {
  const Variant variant{GetParam(), CaseName::thermal, Granularity::stage, Backend::host};
  for (const Layout& layout : layouts_of(variant.dims, world_size())) {
    const RunSpec spec = spec_for(variant, Granularity::stage, layout);
    const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
    const std::array<int, 3> extents{decomposition.px(), decomposition.py(), decomposition.pz()};
    EXPECT_EQ(extents[0] * extents[1] * extents[2], world_size());
    for (int d = 0; d < 3; ++d)
      if (layout[d] != 0) {
        EXPECT_EQ(extents[d], layout[d]) << "direction " << d;
      }
    long cells = 0;
    for (int r = 0; r < decomposition.size(); ++r) {
      const RankBox box = decomposition.box_of(r);
      cells += static_cast<long>(box.nx) * box.ny * box.nz;
      EXPECT_LE(box.j_offset + box.ny, spec.grid.ny);
    }
    EXPECT_EQ(cells, static_cast<long>(spec.grid.nx) * spec.grid.ny * spec.grid.nz);
  }
}

INSTANTIATE_TEST_SUITE_P(Dimensions, RankBoxTest, ::testing::Values(2, 3),
                         [](const auto& test_info) { return std::to_string(test_info.param) + "d"; });

/// NCCL runs one rank per GPU: a job whose ranks share a GPU is refused with a bad-input
/// error naming the ranks, before any NCCL call.
TEST(NcclPlacementTest, RanksSharingAGpuAreRefused) {
  if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
  if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  if (world_size() <= device::device_count()) GTEST_SKIP() << "every rank has a GPU of its own";
  device::select_device(world_rank() % device::device_count());
  const Variant variant{2, CaseName::thermal, Granularity::fused, Backend::cuda, HaloTransport::nccl};
  RunSpec spec = spec_for(variant, variant.granularity, {0, 1, 0});
  spec.parallel.halo = HaloTransport::nccl;
  const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
  try {
    Simulation simulation(spec, Backend::cuda, ExecutionMode::graph, decomposition);
    FAIL() << "a simulation with ranks sharing a GPU was built";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_EQ(error.where(), "parallel.halo");
    EXPECT_NE(std::string(error.what()).find("ranks 0 and "), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace simapp
