/// What simapp writes, through the real binary: snapshots (per time, or a series in one file
/// on one rank or two) hold exactly the state an in-process run computes, earlier results are never overwritten
/// unasked, an unwritable directory is refused before any work, a failed write stops the run with the I/O exit code and
/// leaves the earlier files valid, and checkpoints of another configuration are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/small_case.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

using OutputCliTest = testing::SmallRunTest;

/// The state of the same case run in-process to `steps` steps.
std::vector<double> in_process_state(int steps) {
  RunSpec spec = testing::small_case(CaseName::thermal, 40, 20, steps * OutputCliTest::dt);
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  return simulation->gathered_state();
}

class SnapshotRanksTest : public OutputCliTest, public ::testing::WithParamInterface<int> {};

/// On 1 rank and on 4 (cells gathered to rank 0, which writes).
TEST_P(SnapshotRanksTest, SnapshotsHoldTheStateAnInProcessRunComputes) {
  const Outcome outcome =
      simapp("--set time.sim_time=" + sim_time(10) + " --set output.dir=out --set output.every=" + every(4) +
                 " --set output.variables=all",
             GetParam());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* file :
       {"fields_000000.nc", "fields_000004.nc", "fields_000008.nc", "fields_000010.nc", "fields.xmf"})
    EXPECT_TRUE(fs::exists(out() / file)) << file;
  const std::vector<double> state = in_process_state(10);
  const std::size_t cells = 40 * 20;
  const char* names[] = {"dens", "umom", "wmom", "rhot"};
  for (int v = 0; v < 4; ++v) {
    const std::vector<double> written = io::read_dataset(out() / "fields_000010.nc", names[v]);
    ASSERT_EQ(written.size(), cells);
    EXPECT_EQ(std::memcmp(written.data(), state.data() + v * cells, cells * sizeof(double)), 0) << names[v];
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, SnapshotRanksTest, ::testing::Values(1, 4));

/// Entry `n` along time of field `name` of the series `path` (nz × nx values of the small case).
std::vector<double> series_field_at(const fs::path& path, const std::string& name, std::size_t n) {
  const std::vector<double> all = io::read_dataset(path, name);
  const std::size_t cells = 40 * 20;
  if (all.size() < (n + 1) * cells) return {};
  return {all.begin() + static_cast<std::ptrdiff_t>(n * cells),
          all.begin() + static_cast<std::ptrdiff_t>((n + 1) * cells)};
}

/// output.layout: series on one rank: one file along time, no per-time snapshots and no XDMF
/// index; each time holds what the per-time snapshot of the same run holds, and the last the
/// state an in-process run computes.
TEST_F(OutputCliTest, ASeriesHoldsWhatPerTimeSnapshotsHoldAndTheStateAnInProcessRunComputes) {
  const std::string run =
      "--set time.sim_time=" + sim_time(10) + " --set output.every=" + every(4) + " --set output.variables=all";
  ASSERT_EQ(simapp(run + " --set output.dir=per_time").exit_code, 0);
  const Outcome outcome = simapp(run + " --set output.dir=out --set output.layout=series");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const auto& entry : fs::directory_iterator(out())) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "fields.nc" || name.starts_with("checkpoint_") || name == ".simapp_lock" ||
                name == "simapp.log" || name == "run.json" || name == "stats.nc")
        << "a series run writes no " << name;
  }
  const fs::path series = out() / "fields.nc";
  EXPECT_EQ(io::read_dataset(series, "step"), (std::vector<double>{0, 4, 8, 10}));
  const std::vector<double> times = io::read_dataset(series, "time");
  ASSERT_EQ(times.size(), 4u);
  const char* snapshots[] = {"fields_000000.nc", "fields_000004.nc", "fields_000008.nc", "fields_000010.nc"};
  for (std::size_t n = 0; n < 4; ++n) {
    const fs::path per_time = directory_ / "per_time" / snapshots[n];
    EXPECT_EQ(io::read_dataset(per_time, "time"), std::vector<double>{times[n]}) << snapshots[n];
    for (const char* field : {"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"}) {
      const std::vector<double> a = series_field_at(series, field, n), b = io::read_dataset(per_time, field);
      ASSERT_EQ(a.size(), b.size()) << snapshots[n] << " " << field;
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << snapshots[n] << " " << field;
    }
  }
  const std::vector<double> state = in_process_state(10);
  const std::size_t cells = 40 * 20;
  const char* names[] = {"dens", "umom", "wmom", "rhot"};
  for (int v = 0; v < 4; ++v) {
    const std::vector<double> written = series_field_at(series, names[v], 3);
    ASSERT_EQ(written.size(), cells);
    EXPECT_EQ(std::memcmp(written.data(), state.data() + v * cells, cells * sizeof(double)), 0) << names[v];
  }
}

/// The grid gathered from 2 ranks to rank 0, which appends it: the series of one rank, bit for bit.
TEST_F(OutputCliTest, ASeriesOfTwoRanksIsTheSeriesOfOne) {
  const std::string run = "--set time.sim_time=" + sim_time(10) + " --set output.every=" + every(4) +
                          " --set output.variables=all --set output.layout=series";
  ASSERT_EQ(simapp(run + " --set output.dir=one").exit_code, 0);
  const Outcome two = simapp(run + " --set output.dir=out", 2);
  ASSERT_EQ(two.exit_code, 0) << two.err;
  for (const char* name : {"time", "step", "rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"}) {
    const std::vector<double> a = io::read_dataset(directory_ / "one" / "fields.nc", name),
                              b = io::read_dataset(out() / "fields.nc", name);
    ASSERT_EQ(a.size(), b.size()) << name;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name;
  }
}

TEST_F(OutputCliTest, AnEarlierSeriesIsReplacedOnlyWithOverwriteAndOnlyIfSimappWroteIt) {
  const std::string arguments =
      "--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=2 --set output.layout=series";
  ASSERT_EQ(simapp(arguments).exit_code, 0);
  const auto written = fs::last_write_time(out() / "fields.nc");
  const Outcome again = simapp(arguments);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(std::regex_search(again.err, std::regex(R"(output\.dir: .* holds results of an earlier run)")))
      << again.err;
  EXPECT_EQ(fs::last_write_time(out() / "fields.nc"), written);
  EXPECT_EQ(simapp(arguments + " --overwrite").exit_code, 0);
  // A file of the user's under the series' name is never replaced.
  fs::remove_all(out());
  fs::create_directories(out());
  std::ofstream(out() / "fields.nc") << "precious";
  for (const char* policy : {" --overwrite", ""}) {
    const Outcome refused = simapp(arguments + policy);
    EXPECT_EQ(refused.exit_code, 2) << policy;
    EXPECT_EQ(testing::read_text(out() / "fields.nc"), "precious") << policy;
  }
  const Outcome overwrite = simapp(arguments + " --overwrite");
  EXPECT_TRUE(
      std::regex_search(overwrite.err, std::regex(R"(fields\.nc: named like a result but not written by simapp)")))
      << overwrite.err;
}

TEST_F(OutputCliTest, EarlierResultsAreNotOverwrittenUnasked) {
  const std::string arguments = "--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=2";
  ASSERT_EQ(simapp(arguments).exit_code, 0);
  const auto written = fs::last_write_time(out() / "fields_000000.nc");
  const Outcome again = simapp(arguments);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(std::regex_search(again.err, std::regex(R"(output\.dir: .* holds results of an earlier run)")))
      << again.err;
  EXPECT_EQ(fs::last_write_time(out() / "fields_000000.nc"), written);
  EXPECT_EQ(simapp(arguments + " --overwrite").exit_code, 0);
}

TEST_F(OutputCliTest, UnwritableDirectoryIsRefusedBeforeAnyWork) {
  const Outcome outcome = simapp("--set output.dir=/proc/simapp_output --set output.every=2");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex(R"(output\.dir: cannot write)"))) << outcome.err;
}

TEST_F(OutputCliTest, FailedWriteStopsWithTheIoCodeAndKeepsEarlierFiles) {
  // On 80 x 20 cells (of the usual 500 m) a file-size limit of 48 KiB lets the one-field snapshot
  // (35 KiB, laid out in at most 43) through and fails the checkpoint (56 KiB); the limit is an I/O
  // error, not a kill (SIGXFSZ). No statistics (stats.nc is another file near the limit).
  const Outcome outcome = run(command_with_file_limit(
      "--set grid.nx=80 --set grid.xlen=40000 --set time.sim_time=" + sim_time(4) +
          " --set output.dir=out --set output.variables=rho_prime"
          " --set output.every=" +
          every(2) + " --set output.checkpoint_every=" + every(2) + " --set output.stats_every=0",
      1, 48));
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_TRUE(std::regex_match(without_launcher_notices(outcome.err),
                               std::regex(R"(simapp: error: out/checkpoint_000002\.h5: [^\n]*File too large\n)")))
      << outcome.err;
  EXPECT_EQ(io::read_dataset(out() / "fields_000000.nc", "rho_prime").size(), 80u * 20u);
  EXPECT_FALSE(fs::exists(out() / "checkpoint_000002.h5"));
  EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "no unfinished file is left";
}

/// Every rank continues from the checkpoint, also when the continued run writes no results.
TEST_F(OutputCliTest, RestartWithoutOutputsContinuesOnEveryRank) {
  const std::string run = "--set time.sim_time=" + sim_time(6) + " --set output.dir=out";
  ASSERT_EQ(simapp(run + " --set output.checkpoint_every=" + every(3), 2).exit_code, 0);
  const Outcome restarted = this->run(
      "timeout 60 " + command(run + " --restart out/checkpoint_000006.h5 --set time.sim_time=" + sim_time(9), 2));
  EXPECT_EQ(restarted.exit_code, 0) << restarted.err;
  EXPECT_TRUE(std::regex_search(restarted.out, std::regex(R"(restarting from out/checkpoint_000006\.h5 at step 6)")))
      << restarted.out;
}

TEST_F(OutputCliTest, ProfileTimesEveryKernelAndWritesProfileJson) {
  const Outcome outcome = simapp("--profile --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* op : {"x.stage1.stage", "x.stage3.stage", "z.stage1.stage", "z.stage3.stage"})
    EXPECT_NE(outcome.out.find(op), std::string::npos) << op << "\n" << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(step: 512 bytes a cell)"))) << outcome.out;
  const nlohmann::json profile = nlohmann::json::parse(testing::read_text(out() / "profile.json"));
  EXPECT_EQ(profile["step_bytes_per_cell"], 512.0);
  EXPECT_EQ(profile["ops"].size(), 7u);
  EXPECT_GT(profile["copy_bandwidth_gb_per_s"].get<double>(), 0.0);
  const Outcome again = simapp("--profile --set output.dir=out");
  EXPECT_EQ(again.exit_code, 2) << "an existing profile.json is replaced only with --overwrite";
  EXPECT_EQ(simapp("--profile --restart latest --set output.dir=out").exit_code, 2);
}

TEST_F(OutputCliTest, RestartContinuesAndRefusesAnotherConfiguration) {
  const std::string run = "--set time.sim_time=" + sim_time(6) +
                          " --set output.dir=out --set output.checkpoint_every=" + text(3 * 1.5 * 500.0 / 450.0);
  ASSERT_EQ(simapp(run).exit_code, 0);
  EXPECT_TRUE(fs::exists(out() / "checkpoint_000006.h5"));
  EXPECT_FALSE(fs::exists(out() / "checkpoint_000003.h5")) << "older checkpoints go once a newer one is complete";
  const Outcome other_grid = simapp(run + " --set grid.nx=48 --restart latest");
  EXPECT_EQ(other_grid.exit_code, 2);
  EXPECT_TRUE(std::regex_search(other_grid.err, std::regex(R"(checkpoint of an incompatible configuration)")))
      << other_grid.err;
}

/// A snapshot write that fails on every rank (a full disk) or on one rank only: every rank ends
/// at once with the I/O exit code and one error line, earlier files stay as they were, and no
/// unfinished file is left. (No statistics: stats.nc, written first, would fail first.)
struct WriteFailure {
  int ranks;
  int limited_rank;  ///< -1: every rank
};

class FailedSnapshotWriteTest : public OutputCliTest, public ::testing::WithParamInterface<WriteFailure> {};

TEST_P(FailedSnapshotWriteTest, EndsEveryRankWithTheIoCodeAndKeepsEarlierFiles) {
  const WriteFailure failure = GetParam();
  const std::string outputs = " --set output.dir=out --set output.every=" + every(2) +
                              " --set output.checkpoint_every=" + every(2) + " --set output.stats_every=0";
  ASSERT_EQ(simapp("--set time.sim_time=" + sim_time(4) + outputs, failure.ranks).exit_code, 0);
  const std::vector<double> before = io::read_dataset(out() / "fields_000004.nc", "theta_prime");
  // Continued to step 8 under a limit of 20 KiB a file: the snapshot of step 6 (35 KiB) fails.
  const auto start = std::chrono::steady_clock::now();
  const Outcome outcome =
      run("timeout 60 " + command_with_file_limit("--set time.sim_time=" + sim_time(8) + outputs + " --restart latest",
                                                  failure.ranks, 20, failure.limited_rank));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30)) << "ended at once";
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  std::smatch line;
  EXPECT_TRUE(std::regex_search(outcome.err, line,
                                std::regex(R"(simapp: error: [^\n]*fields_000006\.nc: [^\n]*File too large\n)")))
      << outcome.err;
  EXPECT_EQ(std::regex_search(line.suffix().str(), std::regex("simapp: error:")), false)
      << "one error line: " << outcome.err;
  const std::vector<double> after = io::read_dataset(out() / "fields_000004.nc", "theta_prime");
  EXPECT_EQ(std::memcmp(before.data(), after.data(), before.size() * sizeof(double)), 0);
  for (const char* file : {"fields_000000.nc", "fields_000002.nc", "checkpoint_000004.h5"})
    EXPECT_TRUE(fs::exists(out() / file)) << file;
  EXPECT_FALSE(fs::exists(out() / "fields_000006.nc"));
  EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "no unfinished file is left";
}

INSTANTIATE_TEST_SUITE_P(RanksAndLimits, FailedSnapshotWriteTest,
                         ::testing::Values(WriteFailure{1, -1}, WriteFailure{2, -1}, WriteFailure{3, -1},
                                           WriteFailure{2, 0}, WriteFailure{3, 1}, WriteFailure{3, 2}));

/// A disk that fills up during a snapshot written by 2 or 3 ranks (a tmpfs of 200 KiB; skipped
/// where a tmpfs cannot be mounted): every rank ends at once with the I/O exit code and one
/// line, the snapshots written before stay readable, and no unfinished file is left. (No
/// statistics, which would take the disk's room in other steps.)
class FullDiskTest : public OutputCliTest, public ::testing::WithParamInterface<int> {
 protected:
  void SetUp() override {
    OutputCliTest::SetUp();
    fs::create_directories(out());
    if (run("mount -t tmpfs -o size=200k tmpfs out").exit_code != 0) GTEST_SKIP() << "cannot mount a tmpfs here";
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) run("umount -l out");
    OutputCliTest::TearDown();
  }

  bool mounted_ = false;
};

TEST_P(FullDiskTest, EndsEveryRankWithTheIoCodeAndKeepsEarlierFiles) {
  const Outcome outcome = run("timeout 60 " + command("--set time.sim_time=" + sim_time(24) +
                                                          " --set output.dir=out --set output.every=" + every(3) +
                                                          " --set output.stats_every=0",
                                                      GetParam()));
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.err,
                                std::regex(R"(simapp: error: out/fields_\d+\.nc: [^\n]*No space left on device\n)")))
      << outcome.err;
  EXPECT_EQ(std::regex_search(outcome.err, std::regex("simapp: error:[^\n]*\n[^]*simapp: error:")), false)
      << outcome.err;
  int written = 0;
  for (const auto& entry : fs::directory_iterator(out())) {
    if (entry.path().extension() != ".nc") continue;
    EXPECT_EQ(io::read_dataset(entry.path(), "theta_prime").size(), 40u * 20u) << entry.path();
    ++written;
  }
  EXPECT_GE(written, 2) << "earlier snapshots stay";
  EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "no unfinished file is left";
}

INSTANTIATE_TEST_SUITE_P(Ranks, FullDiskTest, ::testing::Values(1, 2, 3));

TEST_F(OutputCliTest, TheSummarySplitsTheWallTimeWithNoPartNegative) {
  // Snapshots every step and checkpoints every other: outputs written at once follow outputs still
  // being written on a thread, which they wait for.
  const testing::Outcome outcome = simapp("--set time.sim_time=" + sim_time(60) + " --set output.every=" + every(1) +
                                          " --set output.checkpoint_every=" + every(2) + " --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::smatch timing, output;
  ASSERT_TRUE(std::regex_search(outcome.out, timing, std::regex(R"(\ntiming: 60 steps in ([0-9.]+) s, )")))
      << outcome.out;
  ASSERT_TRUE(std::regex_search(outcome.out, output,
                                std::regex(R"(\noutput: (\d+) files: ([0-9.]+) s blocking the steps \(([0-9.]+) s of )"
                                           R"(it waiting for the writer thread\), ([0-9.]+) s on the writer thread )"
                                           R"(beside them; stepping (-?[0-9.]+) ms/step\n)")))
      << outcome.out;
  const double wall = std::stod(timing[1]), blocking = std::stod(output[2]), waiting = std::stod(output[3]);
  EXPECT_EQ(std::stoi(output[1]), 61 + 30);  // t = 0 and 60 snapshots, 30 checkpoints
  EXPECT_LE(blocking, wall + 0.0005) << "output that blocked the steps is part of the wall time";
  EXPECT_LE(waiting, blocking + 0.0005);
  EXPECT_GE(std::stod(output[4]), 0.0);
  EXPECT_GE(std::stod(output[5]), 0.0);
  // Up to the rounding of the printed figures (1 ms each).
  EXPECT_NEAR(std::stod(output[5]), (wall - blocking) / 60 * 1e3, 0.02) << "stepping is the rest of the wall time";
}

TEST_F(OutputCliTest, TheSummarySeparatesOutputFromStepping) {
  const testing::Outcome with_output =
      simapp("--set time.sim_time=" + sim_time(12) + " --set output.every=" + every(4) + " --set output.dir=out");
  ASSERT_EQ(with_output.exit_code, 0) << with_output.err;
  // Snapshots at steps 0, 4, 8 and 12.
  EXPECT_TRUE(std::regex_search(
      with_output.out, std::regex(R"(\noutput: 4 files: [0-9.]+ s blocking the steps \([0-9.]+ s of it waiting )"
                                  R"(for the writer thread\), [0-9.]+ s on the writer thread beside them; )"
                                  R"(stepping [0-9.]+ ms/step\n)")))
      << with_output.out;
  const testing::Outcome without = simapp("--set time.sim_time=" + sim_time(12));
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.out.find("\noutput: "), std::string::npos) << without.out;
}

}  // namespace
}  // namespace simapp
