/// output.stats_every through the real binary: stats.nc holds a row at every snapshot by
/// default, whose extremes are the snapshot's fields' (read back through the HDF5 C API) bit for
/// bit, whose kinetic energy is the fields' and whose last d_mass and d_te are run.json's; the
/// key chooses the rows (0: none, also a run with statistics alone); a state at rest gives exact
/// zeros; a line in the output and simapp.log for each file written; a run killed at any moment
/// leaves a whole file, and `--restart latest` ends with the uncut run's file, bit for bit;
/// --validate counts the rows and more bytes than the file has.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double largest_magnitude(const std::vector<double>& values) {
  double largest = 0.0;
  for (const double value : values) largest = std::max(largest, std::fabs(value));
  return largest;
}

std::string snapshot_name(long step) {
  char name[32];
  std::snprintf(name, sizeof name, "fields_%06ld.nc", step);
  return name;
}

/// Every row of `got` is `expected`'s, bit for bit (the first `count` rows; every row when -1).
void expect_same_rows(const std::vector<io::StatisticsRow>& got, const std::vector<io::StatisticsRow>& expected,
                      long count = -1) {
  if (count < 0) {
    ASSERT_EQ(got.size(), expected.size());
  }
  const auto rows = static_cast<std::size_t>(count < 0 ? static_cast<long>(expected.size()) : count);
  ASSERT_LE(rows, got.size());
  ASSERT_LE(rows, expected.size());
  for (std::size_t r = 0; r < rows; ++r)
    EXPECT_EQ(std::memcmp(&got[r], &expected[r], sizeof got[r]), 0) << "row " << r << ", step " << got[r].step;
}

class StatisticsCliTest : public testing::SmallRunTest {
 protected:
  std::vector<io::StatisticsRow> rows(const fs::path& directory) const {
    return io::read_statistics_file(directory / "stats.nc", ExitCode::io);
  }
  /// Starts `shell_command` in the background; once stats.nc appears in out(), reads it as often
  /// as it can for `seconds` more (each read a whole file, its rows those of `reference`), then
  /// kills the run (SIGKILL) and waits until it is gone.
  void read_while_running_then_kill(const std::string& shell_command, double seconds,
                                    const std::vector<io::StatisticsRow>& reference) const {
    run("(" + shell_command + " > first.out 2> first.err & echo $! > pid)");
    const pid_t pid = std::stoi(testing::read_text(directory_ / "pid"));
    for (int wait = 0; wait < 6000 && running(pid) && !fs::exists(out() / "stats.nc"); ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto start = std::chrono::steady_clock::now();
    do {
      const std::vector<io::StatisticsRow> now = rows(out());  // an Error (a test failure) if not whole
      expect_same_rows(now, reference, static_cast<long>(now.size()));
    } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds);
    ::kill(pid, SIGKILL);
    for (int wait = 0; wait < 500 && running(pid); ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  /// Whether process `pid` exists and is not a zombie.
  static bool running(pid_t pid) {
    const std::string status = testing::read_text("/proc/" + std::to_string(pid) + "/status");
    return !status.empty() && status.find("State:\tZ") == std::string::npos;
  }
  static std::vector<long> steps_of(const std::vector<io::StatisticsRow>& rows) {
    std::vector<long> steps;
    for (const io::StatisticsRow& row : rows) steps.push_back(row.step);
    return steps;
  }
};

TEST_F(StatisticsCliTest, ARowAtEverySnapshotHoldsItsFieldsExtremesAndEnergyAndTheRunsChanges) {
  const testing::Outcome outcome = simapp("--set time.sim_time=" + sim_time(20) + " --set output.every=" + every(5) +
                                          " --set output.variables=all --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::vector<io::StatisticsRow> taken = rows(out());
  ASSERT_EQ(steps_of(taken), (std::vector<long>{0, 5, 10, 15, 20}));
  const double cell_area = 500.0 * 500.0;  // the small case's dx dz, m²
  for (const io::StatisticsRow& row : taken) {
    SCOPED_TRACE("step " + std::to_string(row.step));
    const fs::path snapshot = out() / snapshot_name(row.step);
    const std::vector<double> u = io::read_dataset(snapshot, "u"), w = io::read_dataset(snapshot, "w");
    const std::vector<double> theta_prime = io::read_dataset(snapshot, "theta_prime");
    EXPECT_TRUE(same_bits(row.time, io::read_dataset(snapshot, "time").front()));
    EXPECT_TRUE(same_bits(row.statistics.max_abs_u, largest_magnitude(u)));
    EXPECT_TRUE(same_bits(row.statistics.max_abs_w, largest_magnitude(w)));
    EXPECT_TRUE(same_bits(row.statistics.min_theta_prime, *std::ranges::min_element(theta_prime)));
    EXPECT_TRUE(same_bits(row.statistics.max_theta_prime, *std::ranges::max_element(theta_prime)));
    // ½ρ|u|² = ½(ρu·u + ρw·w), from the prognostic momenta and the velocities.
    const std::vector<double> umom = io::read_dataset(snapshot, "umom"), wmom = io::read_dataset(snapshot, "wmom");
    double kinetic = 0.0;
    for (std::size_t c = 0; c < u.size(); ++c) kinetic += 0.5 * (umom[c] * u[c] + wmom[c] * w[c]) * cell_area;
    // The exact sum truncates each cell's ½ρ|u|² to 2^-42 J m⁻³, a bias of up to that a cell.
    const double truncation = static_cast<double>(u.size()) * std::ldexp(1.0, -42) * cell_area;
    EXPECT_NEAR(row.statistics.kinetic_energy, kinetic, 1e-12 * kinetic + truncation);
    // The Courant number the run set (time.cfl = 1.5 at 450 m/s) against the sound speed near 347 m/s.
    EXPECT_GT(row.statistics.courant_number, 1.1);
    EXPECT_LT(row.statistics.courant_number, 1.25);
  }
  EXPECT_EQ(taken.front().statistics.kinetic_energy, 0.0);  // the bubble starts at rest
  EXPECT_GT(taken.back().statistics.max_abs_w, 0.1);
  EXPECT_EQ(taken.front().change.mass, 0.0);
  const nlohmann::json run = nlohmann::json::parse(testing::read_text(out() / "run.json"));
  EXPECT_TRUE(same_bits(taken.back().change.mass, run["d_mass"].get<double>()));
  EXPECT_TRUE(same_bits(taken.back().change.total_energy, run["d_te"].get<double>()));

  // A line for each file, printed and in simapp.log.
  const std::string log = testing::read_text(out() / "simapp.log");
  for (const std::string& line :
       {std::string("wrote out/fields_000005.nc (t = "), std::string("wrote out/stats.nc (5 times, t = 0 to ")}) {
    EXPECT_NE(outcome.out.find(line), std::string::npos) << line << "\n" << outcome.out;
    EXPECT_NE(log.find(line), std::string::npos) << line;
  }
}

TEST_F(StatisticsCliTest, TheKeyChoosesTheRowsAndZeroTakesNone) {
  const std::string run = "--set time.sim_time=" + sim_time(12) + " --set output.every=" + every(6);
  ASSERT_EQ(simapp(run + " --set output.stats_every=" + every(4) + " --set output.dir=every4").exit_code, 0);
  EXPECT_EQ(steps_of(rows(directory_ / "every4")), (std::vector<long>{0, 4, 8, 12}));
  ASSERT_EQ(simapp(run + " --set output.stats_every=0 --set output.dir=none").exit_code, 0);
  EXPECT_TRUE(fs::exists(directory_ / "none" / snapshot_name(6)));
  EXPECT_FALSE(fs::exists(directory_ / "none" / "stats.nc"));
  // Statistics alone: the run writes into output.dir, no snapshot.
  const testing::Outcome alone = simapp("--set time.sim_time=" + sim_time(12) +
                                        " --set output.stats_every=" + every(3) + " --set output.dir=alone");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(steps_of(rows(directory_ / "alone")), (std::vector<long>{0, 3, 6, 9, 12}));
  EXPECT_FALSE(fs::exists(directory_ / "alone" / snapshot_name(0)));
  EXPECT_TRUE(fs::exists(directory_ / "alone" / "simapp.log"));
  // An interval shorter than a step is refused, naming the key.
  const testing::Outcome short_interval = simapp("--set output.stats_every=0.1 --set output.dir=short");
  EXPECT_EQ(short_interval.exit_code, 2);
  EXPECT_TRUE(std::regex_search(short_interval.err, std::regex("^simapp: error: .*output.stats_every: 0.1 s is "
                                                               "shorter than the time step")))
      << short_interval.err;
}

TEST_F(StatisticsCliTest, ValidateCountsTheRowsAndMoreBytesThanTheFileHas) {
  const std::string run = "--set time.sim_time=" + sim_time(12) + " --set output.stats_every=" + every(3) +
                          " --set output.every=" + every(6) + " --set output.dir=out";
  const testing::Outcome validated = simapp("--validate " + run);
  ASSERT_EQ(validated.exit_code, 0) << validated.err;
  std::smatch disk;
  ASSERT_TRUE(
      std::regex_search(validated.out, disk,
                        std::regex(R"(\n  disk      at most \S+ \S+ in 'out': 3 snapshots of 4 fields \(\S+ \S+ )"
                                   R"(each\), no checkpoints, 5 rows of statistics \(([0-9.]+) kB\); )")))
      << validated.out;
  ASSERT_EQ(simapp(run).exit_code, 0);
  EXPECT_EQ(rows(out()).size(), 5U);
  // The estimate (3 significant digits) is a bound with kilobytes to spare, so its rounding cannot hide an excess.
  EXPECT_LE(static_cast<double>(fs::file_size(out() / "stats.nc")), std::stod(disk[1].str()) * 1e3);
}

TEST_F(StatisticsCliTest, AFailedWriteStopsWithTheIoCodeAndLeavesNothingUnfinished) {
  // A file-size limit of 16 KiB fails the first stats.nc (about 45 kB); an I/O error, not a kill.
  const testing::Outcome outcome = run(command_with_file_limit(
      "--set time.sim_time=" + sim_time(4) + " --set output.stats_every=" + every(2) + " --set output.dir=out", 1, 16));
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_TRUE(std::regex_match(without_launcher_notices(outcome.err),
                               std::regex(R"(simapp: error: out/stats\.nc: [^\n]*File too large\n)")))
      << outcome.err;
  EXPECT_FALSE(fs::exists(out() / "stats.nc"));
  EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "no unfinished file is left";
  EXPECT_NE(testing::read_text(out() / "simapp.log").find("out/stats.nc"), std::string::npos);
}

TEST_F(StatisticsCliTest, AStateAtRestGivesExactZeros) {
  ASSERT_EQ(simapp("--set case=rest --set time.sim_time=" + sim_time(6) + " --set output.stats_every=" + every(3) +
                   " --set output.dir=out")
                .exit_code,
            0);
  const std::vector<io::StatisticsRow> taken = rows(out());
  ASSERT_EQ(taken.size(), 3U);
  for (const io::StatisticsRow& row : taken) {
    EXPECT_EQ(row.statistics.kinetic_energy, 0.0);
    EXPECT_EQ(row.statistics.max_abs_u, 0.0);
    EXPECT_EQ(row.statistics.max_abs_w, 0.0);
    EXPECT_EQ(row.statistics.min_theta_prime, 0.0);
    EXPECT_EQ(row.statistics.max_theta_prime, 0.0);
    EXPECT_EQ(row.change.mass, 0.0);
    EXPECT_EQ(row.change.total_energy, 0.0);
  }
}

TEST_F(StatisticsCliTest, AKilledRunLeavesAWholeFileAndARestartEndsWithTheUncutRunsFile) {
  // 300 steps, a row every 2, a checkpoint every 30: about a second on one core.
  const std::string run = "--set time.sim_time=" + sim_time(300) + " --set output.stats_every=" + every(2) +
                          " --set output.checkpoint_every=" + every(30);
  ASSERT_EQ(simapp(run + " --set output.dir=reference").exit_code, 0);
  const std::vector<io::StatisticsRow> reference = rows(directory_ / "reference");
  ASSERT_EQ(reference.size(), 151U);
  for (const double seconds : {0.0, 0.1, 0.4}) {
    SCOPED_TRACE("SIGKILL " + text(seconds) + " s after stats.nc appeared");
    fs::remove_all(out());
    read_while_running_then_kill(command(run + " --set output.dir=out"), seconds, reference);
    {  // whole, and what it holds is the uncut run's
      const std::vector<io::StatisticsRow> left = rows(out());
      EXPECT_GE(left.size(), 1U);
      expect_same_rows(left, reference, static_cast<long>(left.size()));
    }
    const testing::Outcome restarted = simapp(run + " --set output.dir=out --restart latest");
    ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
    expect_same_rows(rows(out()), reference);
  }
}

}  // namespace
}  // namespace simapp
