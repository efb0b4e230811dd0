/// The 3-D model's fields do not depend on the decomposition: a run on every rank of the job as
/// px × py × pz, gathered on rank 0, equals bit for bit the same case run by rank 0 alone, for
/// every layout of the job's rank count (1 = 2 × 2 × 1 = 1 × 3 × 1 = 2 × 1 × 2 …), in the
/// eager and graph modes, every granularity, halos exchanged along x, y and z with and without
/// overlap (the cells that read no ghost updated while halos travel). Run under mpiexec with 1, 3, 4
/// and 6 ranks; the CUDA variant (label gpu) where a GPU is visible; halos by NCCL inside the
/// graphs (label nccl) with 2 ranks where each rank has a GPU of its own.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

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
using Layout = std::array<int, 3>;

/// `name` on 18 × 11 × 9 cells (uneven splits) of 1 km × 1 km × 1.1 km for 12.5 dt, its bubble
/// off the centre in x and y.
RunSpec spec_for(CaseName name, const Layout& ranks, int steps_per_graph) {
  RunSpec spec = testing::small_case(name, 18, 9, 1.0);
  spec.grid.xlen = 18000.0;
  spec.grid.ny = 11;
  spec.grid.ylen = 11000.0;
  if (name == CaseName::straka) spec.physics.viscosity = 200.0;  // diffusion across rank boundaries too
  if (name == CaseName::thermal) {
    spec.perturbation.center = {7000.0, 4500.0, 3000.0};
    spec.perturbation.radii = {3000.0, 2500.0, 2000.0};
  }
  spec.time.sim_time = 12.5 * TimeStepping(1.0, 1000.0, spec.grid.zlen / 9, spec.time.cfl, spec.physics.viscosity).dt();
  spec.parallel.ranks = ranks;
  spec.execution.steps_per_graph = steps_per_graph;
  return spec;
}

/// The layouts of `ranks` ranks this test takes (each direction keeps at least two cells a rank).
std::vector<Layout> layouts_of(int ranks) {
  const std::vector<Layout> all{{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {1, 3, 1}, {3, 1, 1}, {2, 2, 1},
                                {2, 1, 2}, {1, 1, 4}, {1, 4, 1}, {1, 3, 2}, {3, 2, 1}, {2, 3, 1}};
  std::vector<Layout> of;
  for (const Layout& layout : all)
    if (layout[0] * layout[1] * layout[2] == ranks) of.push_back(layout);
  return of;
}

std::vector<double> gathered_run(const RunSpec& spec, Backend backend, ExecutionMode mode, MPI_Comm comm) {
  const Decomposition decomposition(comm, spec.grid, spec.parallel);
  Simulation simulation(spec, backend, mode, decomposition);
  run_to_end(simulation, 0, [](const ProgressReport&) {});
  return simulation.gathered_state();
}

/// How a distributed run lays out its work: granularity, halo overlap, execution mode.
struct Variant {
  Granularity granularity;
  HaloOverlap overlap;
  ExecutionMode mode;
};

std::string describe(const Variant& variant) {
  return std::string(to_string(variant.granularity)) + ", overlap " +
         std::string(name_in(halo_overlap_names, variant.overlap)) + ", " + std::string(to_string(variant.mode));
}

/// Every variant of every layout of the job's ranks, halos by `halo`, equals rank 0 alone (eager,
/// one rank) bit for bit, for thermal, injection and straka.
void expect_every_layout_equals_one_rank(Backend backend, HaloTransport halo, const std::vector<Variant>& variants) {
  for (const CaseName name : {CaseName::thermal, CaseName::injection, CaseName::straka}) {
    RunSpec alone = spec_for(name, {0, 0, 0}, 4);
    const std::vector<double> reference =
        world_rank() == 0 ? gathered_run(alone, backend, ExecutionMode::eager, MPI_COMM_SELF) : std::vector<double>{};
    for (const Layout& layout : layouts_of(world_size()))
      for (const Variant& variant : variants) {
        RunSpec spec = spec_for(name, layout, 4);
        spec.execution.granularity = variant.granularity;
        spec.parallel.overlap = variant.overlap;
        spec.parallel.halo = halo;
        const std::vector<double> distributed = gathered_run(spec, backend, variant.mode, MPI_COMM_WORLD);
        if (world_rank() != 0) continue;
        EXPECT_TRUE(bitwise_equal(distributed, reference))
            << to_string(name) << " (" << describe(variant) << ") as [" << layout[0] << ", " << layout[1] << ", "
            << layout[2] << "]";
      }
  }
}

/// Halos by MPI: both overlaps, the eager and graph modes, every granularity.
const std::vector<Variant> mpi_variants{{Granularity::stage, HaloOverlap::on, ExecutionMode::eager},
                                        {Granularity::stage, HaloOverlap::on, ExecutionMode::graph},
                                        {Granularity::stage, HaloOverlap::off, ExecutionMode::graph},
                                        {Granularity::fused, HaloOverlap::on, ExecutionMode::graph},
                                        {Granularity::fused, HaloOverlap::off, ExecutionMode::eager},
                                        {Granularity::fine, HaloOverlap::on, ExecutionMode::graph},
                                        {Granularity::pass, HaloOverlap::on, ExecutionMode::graph}};

/// Halos by NCCL (device work, so a step needs no host op): every granularity, and every mode
/// that runs more than one rank, graph_loop included.
const std::vector<Variant> nccl_variants{{Granularity::stage, HaloOverlap::on, ExecutionMode::eager},
                                         {Granularity::stage, HaloOverlap::on, ExecutionMode::eager_streams},
                                         {Granularity::stage, HaloOverlap::on, ExecutionMode::graph},
                                         {Granularity::stage, HaloOverlap::on, ExecutionMode::graph_loop},
                                         {Granularity::fused, HaloOverlap::on, ExecutionMode::graph},
                                         {Granularity::fine, HaloOverlap::on, ExecutionMode::graph},
                                         {Granularity::pass, HaloOverlap::on, ExecutionMode::graph_loop}};

TEST(Decomposition3dTest, EveryLayoutEqualsOneRankBitForBit_host) {
  expect_every_layout_equals_one_rank(Backend::host, HaloTransport::mpi, mpi_variants);
}

TEST(Decomposition3dTest, EveryLayoutEqualsOneRankBitForBit_cuda) {
  if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  expect_every_layout_equals_one_rank(Backend::cuda, HaloTransport::mpi, mpi_variants);
}

TEST(Decomposition3dTest, EveryLayoutEqualsOneRankBitForBit_nccl) {
  if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
  if (device::device_count() < world_size())
    GTEST_SKIP() << "NCCL needs a GPU per rank: " << world_size() << " ranks, " << device::device_count() << " GPU(s)";
  device::select_device(world_rank());
  expect_every_layout_equals_one_rank(Backend::cuda, HaloTransport::nccl, nccl_variants);
}

TEST(Decomposition3dTest, ARankBoxTilesTheGrid_host) {
  for (const Layout& layout : layouts_of(world_size())) {
    const RunSpec spec = spec_for(CaseName::thermal, layout, 1);
    const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
    EXPECT_EQ(decomposition.px(), layout[0]);
    EXPECT_EQ(decomposition.py(), layout[1]);
    EXPECT_EQ(decomposition.pz(), layout[2]);
    long cells = 0;
    for (int r = 0; r < decomposition.size(); ++r) {
      const RankBox box = decomposition.box_of(r);
      cells += static_cast<long>(box.nx) * box.ny * box.nz;
      EXPECT_LE(box.j_offset + box.ny, spec.grid.ny);
    }
    EXPECT_EQ(cells, 18L * 11 * 9);
  }
}

}  // namespace
}  // namespace simapp
