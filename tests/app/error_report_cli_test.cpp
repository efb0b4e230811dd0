/// How errors reach the user, through the real binary: one line `simapp: error: …` per job for
/// an error every rank shares (bad input, a blow-up, a failed write), never MPI_Abort's banner
/// on one rank, and control characters in echoed values escaped so the line stays one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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

/// Runs on 40 x 20 cells whose density turns NaN at step 5 (dt = 3.33 s, three times the stable
/// one); the first health check after it follows step 10, and the first snapshot is at step 15.
const std::string turns_nan = "--set time.cfl=3 --set time.sim_time=100 --set output.dir=out --set output.every=50";

/// A progress line every step sees the NaN in its mass and energy before the health check
/// does (a line every 2 s of wall time did so by chance: with fine chunks, on 3 or 4 ranks, on a
/// loaded machine). The report is the health check's all the same, whatever the progress lines,
/// ranks, granularity or mode: its step, its cell, and the state of that step kept.
TEST_F(ErrorReportTest, AProgressLineNeverDecidesHowABlowUpIsReported) {
  const std::string expected =
      "simapp: error: step 10 (t = 33.3333 s): the health check failed: dens is not finite at cell (i, k) = (0, 0); "
      "the state at step 10 is in out/fields_000010_failed.nc\n";
  const std::pair<std::string, int> variants[] = {
      {"", 1},
      {"--set output.progress_every=1", 1},
      {"--set output.progress_every=1 --set execution.granularity=fine --mode eager", 1},
      {"--set output.progress_every=3 --mode eager_sync", 1},
      {"--set output.progress_every=1", 3},
  };
  for (const auto& [arguments, ranks] : variants) {
    std::filesystem::remove_all(out());
    const Outcome outcome = simapp(turns_nan + " " + arguments, ranks);
    EXPECT_EQ(outcome.exit_code, 4) << arguments << " on " << ranks << " rank(s)";
    // mpiexec adds lines of its own about the exit code.
    EXPECT_EQ(outcome.err.substr(0, outcome.err.find('\n') + 1), expected) << arguments << " on " << ranks;
    EXPECT_EQ(count_of(outcome.err, "simapp: error:"), 1) << outcome.err;
    EXPECT_TRUE(std::filesystem::exists(out() / "fields_000010_failed.nc")) << arguments;
    EXPECT_TRUE(std::filesystem::exists(out() / "fields_000000.nc")) << arguments;
  }
}

/// Without the health check (execution.check_every = 0) the state is looked at where a snapshot
/// or checkpoint is due (and the mass and energy at the end), never by a progress line.
TEST_F(ErrorReportTest, WithoutTheHealthCheckABlowUpIsFoundAtTheNextOutputWhateverTheProgressLines) {
  const std::string expected =
      "simapp: error: step 15 (t = 50 s): the solution is no longer finite: dens is not finite at cell (i, k) = (0, "
      "0); nothing was written at this step\n";
  for (const std::string progress : {"0", "1"}) {
    std::filesystem::remove_all(out());
    const Outcome outcome =
        simapp(turns_nan + " --set execution.check_every=0 --set output.progress_every=" + progress);
    EXPECT_EQ(outcome.exit_code, 4) << "progress_every " << progress;
    EXPECT_EQ(outcome.err, expected) << "progress_every " << progress;
  }
}

TEST_F(ErrorReportTest, ControlCharactersInEchoedValuesAreEscaped) {
  const Outcome outcome = simapp("--set \"case=therm$(printf '\\033[31m\\nal\\t')\"");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(std::regex_match(outcome.err, std::regex(R"(simapp: error: [^\n]*therm\\x1b\[31m\\nal\\t[^\n]*\n)")))
      << outcome.err;
  EXPECT_TRUE(std::none_of(outcome.err.begin(), outcome.err.end() - 1, [](char c) {
    return static_cast<unsigned char>(c) < 0x20;
  })) << "no control character but the final newline";
}

TEST_F(ErrorReportTest, ControlCharactersInPathsAreEscapedWhereverTheyArePrinted) {
  // A configuration and an output directory named with a colour escape and a newline, after which
  // a line that reads as a result (a forged log line).
  const std::string forged = "$(printf '\\033[31m\\nFAKE d_mass: 9')";
  const std::string names = "cfg=\"case" + forged + ".yaml\"; dir=\"out" + forged + "\"; cp case.yaml \"$cfg\"; ";
  const std::string simapp_on_them = launcher(1) + binary() +
                                     " \"$cfg\" --backend host --set time.sim_time=" + sim_time(6) +
                                     " --set output.every=" + every(6) + " --set \"output.dir=$dir\"";
  const auto expect_printable = [](const std::string& text, const std::string& what) {
    EXPECT_FALSE(std::regex_search(text, std::regex("(^|\n|\\] )FAKE"))) << what << ":\n" << text;
    EXPECT_EQ(std::count_if(text.begin(), text.end(),
                            [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; }),
              0)
        << what << ":\n"
        << text;
  };
  const Outcome validated = run(names + simapp_on_them + " --validate");
  EXPECT_EQ(validated.exit_code, 0) << validated.err;
  expect_printable(validated.out, "--validate");
  EXPECT_TRUE(validated.out.starts_with("case\\x1b[31m\\nFAKE d_mass: 9.yaml: configuration is valid\n"))
      << validated.out;
  const Outcome ran =
      run("(" + names + simapp_on_them + "; status=$?; cat \"$dir/simapp.log\" > log.txt; exit $status)");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  expect_printable(ran.out, "the run's lines");
  EXPECT_NE(ran.out.find("  config    case\\x1b[31m\\nFAKE d_mass: 9.yaml\n"), std::string::npos) << ran.out;
  const std::string log = testing::read_text(directory_ / "log.txt");
  expect_printable(log, "simapp.log");
  EXPECT_NE(log.find("  output    out\\x1b[31m\\nFAKE d_mass: 9: snapshots"), std::string::npos) << log;
  const Outcome compared = run(names + simapp_on_them + " --mode compare --set execution.repeats=1 --overwrite");
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  expect_printable(compared.out, "--mode compare");
  EXPECT_NE(compared.out.find("\nwrote out\\x1b[31m\\nFAKE d_mass: 9/timing.json\n"), std::string::npos)
      << compared.out;
}

TEST_F(ErrorReportTest, MoreOpenMPThreadsThanTheMachineCanRunAreRefusedWithOneLine) {
  // 100000 threads crashed inside the OpenMP runtime (a stack overflow, SIGSEGV, no word).
  for (const char* flags : {" --validate", ""}) {
    SCOPED_TRACE(flags);
    const Outcome outcome = run("env OMP_NUM_THREADS=100000 " + binary() +
                                " case.yaml --backend host --set time.sim_time=" + sim_time(6) + flags);
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_TRUE(std::regex_match(
        outcome.err, std::regex(R"(simapp: error: OMP_NUM_THREADS: 100000 OpenMP threads, more than 4 for each of )"
                                R"(the (\d+) CPUs? this process may run on: set it to at most \d+ \(one thread a )"
                                R"(CPU is fastest\)\n)")))
        << outcome.err;
  }
}

TEST_F(ErrorReportTest, AJobOfOneRankRunsWithoutAnyEnvironment) {
  // `env -i simapp …`: no PATH, so no rsh agent for Open MPI's singleton start-up to find.
  const Outcome outcome = run("env -i " + binary() + " " + (directory_ / "case.yaml").string() +
                              " --backend host --set time.sim_time=" + sim_time(6) + " --set output.every=" + every(6) +
                              " --set output.dir=out");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.err, "");
  EXPECT_TRUE(std::filesystem::exists(out() / "fields_000006.nc"));
}

}  // namespace
}  // namespace simapp
