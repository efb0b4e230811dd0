/// How errors reach the user, through the real binary: one line `simapp: error: …` per job for
/// an error every rank shares (bad input, a blow-up, a failed write), never MPI_Abort's banner
/// on one rank, and control characters in echoed values escaped so the line stays one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

using testing::Outcome;

/// Runs on 40 x 20 cells that blow up at step 150 (gravity waves in a 40 km high domain).
const std::string blow_up =
    "--set case=gravity_waves --set grid.zlen=40000 --set time.sim_time=600 "
    "--set output.every=50 --set output.dir=out";

long count_of(const std::string& text, const std::string& what) {
  long count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

class ErrorReportTest : public testing::SmallRunTest, public ::testing::WithParamInterface<int> {};

TEST_F(ErrorReportTest, AnErrorDuringTheRunIsOneLineOnOneRank) {
  const Outcome outcome = simapp(blow_up);
  EXPECT_EQ(outcome.exit_code, 4);
  // The speed of sound near the top of this domain exceeds the 450 m/s dt is chosen for: the
  // first health check (after step 10) finds it.
  EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: step 10 [^\n]*health check[^\n]*\n")))
      << outcome.err;
}

TEST_P(ErrorReportTest, AFailedHealthCheckNamesTheSameCellOnAnyRankCountAndKeepsTheFailedState) {
  const std::string unstable =
      "--set time.cfl=2 --set time.sim_time=300 --set output.every=10 --set output.dir=out "
      "--set execution.check_every=1";
  const Outcome serial = simapp(unstable);
  const std::regex line(
      R"(simapp: error: step (\d+) \(t = [^)]+\): the health check failed: [^\n]+ at cell \(i, k\) = )"
      R"(\(\d+, \d+\); the state at step (\d+) is in out/fields_0*(\d+)_failed\.nc\n)");
  std::smatch parts;
  ASSERT_EQ(serial.exit_code, 4) << serial.err;
  ASSERT_TRUE(std::regex_match(serial.err, parts, line)) << serial.err;
  EXPECT_EQ(parts[2], parts[3]);
  EXPECT_GE(std::stol(parts[2]), std::stol(parts[1]));
  EXPECT_TRUE(std::filesystem::exists(out() / ("fields_0000" + parts[3].str() + "_failed.nc")));
  EXPECT_TRUE(std::filesystem::exists(out() / "fields_000050.nc"));  // snapshots before the failure stay
  const std::string failed_step = parts[1];
  const std::string cell = serial.err.substr(0, serial.err.find("; the state"));

  std::filesystem::remove_all(out());
  const Outcome parallel = simapp(unstable, GetParam());
  EXPECT_EQ(parallel.exit_code, 4) << parallel.err;
  EXPECT_EQ(parallel.err.substr(0, parallel.err.find("; the state")), cell);
}

TEST_P(ErrorReportTest, AnErrorEveryRankMeetsIsPrintedOnce) {
  const Outcome outcome = simapp(blow_up, GetParam());
  EXPECT_EQ(outcome.exit_code, 4) << outcome.err;
  EXPECT_EQ(count_of(outcome.err, "simapp: error:"), 1) << outcome.err;
  EXPECT_EQ(count_of(outcome.err, "MPI_ABORT"), 0) << outcome.err;
}

INSTANTIATE_TEST_SUITE_P(Ranks, ErrorReportTest, ::testing::Values(2, 4));

/// The health check follows the steps that are multiples of execution.check_every (and the
/// run's last) whatever cuts the run into chunks: one rank takes 40 steps a graph, three ranks
/// (halos through the host) one, and outputs end chunks too (every 7 steps here, 0: none). The
/// state is the same on any rank count, so the failed check is too.
class CheckCadenceTest : public testing::SmallRunTest, public ::testing::WithParamInterface<int> {};

TEST_P(CheckCadenceTest, AFailedCheckNamesTheSameStepAndCellOnOneAndThreeRanks) {
  const double unstable_dt = 2.0 * 500.0 / 450.0;  // the small case's at time.cfl = 2
  const int output_every = GetParam();
  const std::string unstable =
      "--set time.cfl=2 --set execution.check_every=10 --set time.sim_time=" + text(100 * unstable_dt) +
      (output_every > 0 ? " --set output.dir=out --set output.every=" + text(output_every * unstable_dt) : "");
  const std::regex line(
      R"(simapp: error: step (\d+) \(t = [^)]+\): the health check failed: [^\n]+ at cell \(i, k\) = )"
      R"(\(\d+, \d+\); [^\n]+\n)");
  const Outcome serial = simapp(unstable);
  std::smatch parts;
  ASSERT_EQ(serial.exit_code, 4) << serial.err;
  ASSERT_TRUE(std::regex_match(serial.err, parts, line)) << serial.err;
  const long step = std::stol(parts[1]);
  EXPECT_TRUE(step % 10 == 0 || step == 100) << serial.err;
  const std::string failed_check = serial.err.substr(0, serial.err.find("; "));

  std::filesystem::remove_all(out());
  const Outcome parallel = simapp(unstable, 3);
  EXPECT_EQ(parallel.exit_code, 4) << parallel.err;
  EXPECT_EQ(parallel.err.substr(0, parallel.err.find("; ")), failed_check) << parallel.err;
}

INSTANTIATE_TEST_SUITE_P(Outputs, CheckCadenceTest, ::testing::Values(0, 7));

TEST_F(ErrorReportTest, ControlCharactersInEchoedValuesAreEscaped) {
  const Outcome outcome = simapp("--set \"case=therm$(printf '\\033[31m\\nal\\t')\"");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(std::regex_match(outcome.err, std::regex(R"(simapp: error: [^\n]*therm\\x1b\[31m\\nal\\t[^\n]*\n)")))
      << outcome.err;
  EXPECT_TRUE(std::none_of(outcome.err.begin(), outcome.err.end() - 1, [](char c) {
    return static_cast<unsigned char>(c) < 0x20;
  })) << "no control character but the final newline";
}

}  // namespace
}  // namespace simapp
