/// What simapp writes, through the real binary: snapshots hold exactly the state an in-process
/// run computes, earlier results are never overwritten unasked, an unwritable directory is
/// refused before any work, a failed write stops the run with the I/O exit code and leaves the
/// earlier files valid, and checkpoints of another configuration are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class OutputCliTest : public testing::BinaryTest {
 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    std::ofstream(directory_ / "case.yaml") << "case: thermal\ngrid:\n  nx: 40\n  nz: 20\n";
  }

  /// Runs simapp on `ranks` MPI ranks (1: without mpiexec).
  Outcome simapp(const std::string& arguments, int ranks = 1) const {
    // A clean environment (this test process is an MPI singleton whose variables would confuse
    // a nested mpiexec); Open MPI allowed to run as root (CI does) and more ranks than cores.
    const std::string launcher =
        ranks == 1 ? "OMP_NUM_THREADS=1 "
                   : "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                     "OMPI_MCA_rmaps_base_oversubscribe=1 " +
                         std::string(SIMAPP_MPIEXEC) + " -n " + std::to_string(ranks) + " ";
    return run(launcher + SIMAPP_BINARY + " case.yaml --backend host " + arguments);
  }

  /// `seconds` as text that reads back to the same double.
  static std::string text(double seconds) {
    std::ostringstream out;
    out.precision(17);
    out << seconds;
    return out.str();
  }
  /// sim_time of `steps` steps at 40 × 20 (dt = 1.5 · 500 / 450 s).
  static std::string sim_time(int steps) { return text(steps * 1.5 * 500.0 / 450.0); }

  fs::path out() const { return directory_ / "out"; }
};

/// The state of the same case run in-process to `steps` steps.
std::vector<double> in_process_state(int steps) {
  RunSpec spec = testing::small_case(CaseName::thermal, 40, 20, steps * 1.5 * 500.0 / 450.0);
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  return simulation->gathered_state();
}

class SnapshotRanksTest : public OutputCliTest, public ::testing::WithParamInterface<int> {};

/// On 1 rank and on 4 (cells gathered to rank 0, which writes).
TEST_P(SnapshotRanksTest, SnapshotsHoldTheStateAnInProcessRunComputes) {
  const double every = 4 * 1.5 * 500.0 / 450.0;  // every 4 steps
  const Outcome outcome = simapp("--set time.sim_time=" + sim_time(10) + " --set output.dir=out --set output.every=" +
                                     text(every) + " --set output.variables=all",
                                 GetParam());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* file : {"fields_000000.h5", "fields_000004.h5", "fields_000008.h5", "fields_000010.h5", "fields.xmf"})
    EXPECT_TRUE(fs::exists(out() / file)) << file;
  const std::vector<double> state = in_process_state(10);
  const std::size_t cells = 40 * 20;
  const char* names[] = {"dens", "umom", "wmom", "rhot"};
  for (int v = 0; v < 4; ++v) {
    const std::vector<double> written = io::read_dataset(out() / "fields_000010.h5", names[v]);
    ASSERT_EQ(written.size(), cells);
    EXPECT_EQ(std::memcmp(written.data(), state.data() + v * cells, cells * sizeof(double)), 0) << names[v];
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, SnapshotRanksTest, ::testing::Values(1, 4));

TEST_F(OutputCliTest, EarlierResultsAreNotOverwrittenUnasked) {
  const std::string arguments = "--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=2";
  ASSERT_EQ(simapp(arguments).exit_code, 0);
  const auto written = fs::last_write_time(out() / "fields_000000.h5");
  const Outcome again = simapp(arguments);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(std::regex_search(again.err, std::regex(R"(output\.dir: .* holds results of an earlier run)"))) << again.err;
  EXPECT_EQ(fs::last_write_time(out() / "fields_000000.h5"), written);
  EXPECT_EQ(simapp(arguments + " --overwrite").exit_code, 0);
}

TEST_F(OutputCliTest, UnwritableDirectoryIsRefusedBeforeAnyWork) {
  const Outcome outcome = simapp("--set output.dir=/proc/simapp_output --set output.every=2");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex(R"(output\.dir: cannot write)"))) << outcome.err;
}

TEST_F(OutputCliTest, FailedWriteStopsWithTheIoCodeAndKeepsEarlierFiles) {
  // A directory where the second snapshot must go makes that write fail, even for root.
  fs::create_directories(out() / "fields_000002.h5");
  const Outcome outcome = simapp("--set time.sim_time=" + sim_time(4) + " --set output.dir=out --set output.every=" +
                                 text(2 * 1.5 * 500.0 / 450.0) + " --overwrite");
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex(R"(fields_000002\.h5)"))) << outcome.err;
  EXPECT_EQ(io::read_dataset(out() / "fields_000000.h5", "rho_prime").size(), 40u * 20u);
  EXPECT_FALSE(fs::exists(out() / "fields_000004.h5"));
}

TEST_F(OutputCliTest, RestartContinuesAndRefusesAnotherConfiguration) {
  const std::string run = "--set time.sim_time=" + sim_time(6) + " --set output.dir=out --set output.checkpoint_every=" +
                          text(3 * 1.5 * 500.0 / 450.0);
  ASSERT_EQ(simapp(run).exit_code, 0);
  EXPECT_TRUE(fs::exists(out() / "checkpoint_000006.h5"));
  EXPECT_FALSE(fs::exists(out() / "checkpoint_000003.h5")) << "older checkpoints go once a newer one is complete";
  const Outcome other_grid = simapp(run + " --set grid.nx=48 --restart latest");
  EXPECT_EQ(other_grid.exit_code, 2);
  EXPECT_TRUE(std::regex_search(other_grid.err, std::regex(R"(checkpoint of an incompatible configuration)")))
      << other_grid.err;
}

}  // namespace
}  // namespace simapp
