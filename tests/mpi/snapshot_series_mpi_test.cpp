/// output.layout: series on several ranks: the grid gathered to rank 0, which appends it, gives
/// bit for bit the series a run on one rank writes. Run under mpiexec (2 and 3 ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/config/load_config.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/output/run_outputs.hpp"
#include "tests/support/mpi_scratch.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> all_fields{"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"};

/// Runs `simulation` to its end with the series of `config` as its only output.
void run_with_series(Simulation& simulation, const io::LoadedConfig& config) {
  run_to_end(
      simulation, 0, [](const ProgressReport&) {}, io::make_outputs(config, simulation, simulation.diagnostics()));
}

TEST(SnapshotSeriesMpiTest, TheSeriesOfEveryRankCountIsTheSeriesOfOneRank) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  RunSpec spec = testing::small_case(CaseName::thermal, 41, 22, 1.0);
  const double dt = TimeStepping(1.0, spec.grid.xlen / 41, spec.grid.zlen / 22, spec.time.cfl).dt();
  spec.time.sim_time = 10 * dt;
  spec.output.every = 4 * dt;  // steps 0, 4, 8 and 10
  spec.output.layout = OutputLayout::series;
  spec.output.variables = all_fields;
  const fs::path directory = testing::job_scratch_directory("simapp_snapshot_series_mpi_test");
  io::LoadedConfig one{spec, "", "case: thermal\n"}, ranks = one;
  one.spec.output.dir = (directory / "one").string();
  ranks.spec.output.dir = (directory / "ranks").string();
  if (rank == 0) {
    fs::remove_all(directory);
    fs::create_directories(one.spec.output.dir);
    fs::create_directories(ranks.spec.output.dir);
    testing::SerialSimulation serial(spec, Backend::host, ExecutionMode::graph);
    run_with_series(*serial, one);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
  Simulation simulation(spec, Backend::host, ExecutionMode::graph, decomposition);
  run_with_series(simulation, ranks);
  if (rank == 0) {
    const fs::path a = directory / "one" / "fields.nc", b = directory / "ranks" / "fields.nc";
    EXPECT_EQ(io::read_dataset(b, "step"), (std::vector<double>{0, 4, 8, 10}));
    std::vector<std::string> names = all_fields;
    names.insert(names.end(), {"time", "step"});
    for (const std::string& name : names) {
      const std::vector<double> from_one = io::read_dataset(a, name), from_ranks = io::read_dataset(b, name);
      ASSERT_EQ(from_one.size(), from_ranks.size()) << name;
      EXPECT_EQ(std::memcmp(from_one.data(), from_ranks.data(), from_one.size() * sizeof(double)), 0)
          << decomposition.size() << " ranks: " << name << " differs";
    }
    fs::remove_all(directory);
  }
}

}  // namespace
}  // namespace simapp
