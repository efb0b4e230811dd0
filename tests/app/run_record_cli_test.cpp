/// What a run leaves about itself in output.dir, through the real binary: simapp.log holds every
/// line the run printed, each with its time, between its start and end lines; run.json says what
/// the run was (its configuration, dt, steps, ranks) and how it ended (the exit code and why),
/// whether it completed, failed or was stopped; a restart continues both; a run refused before it
/// takes the directory over leaves an earlier run's record as it was. And --validate prints the
/// resolved time stepping, ranks, memory and disk.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/support/small_run_test.hpp"
#include "tests/support/text_lines.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;
using testing::lines_of;

using testing::Outcome;
using Json = nlohmann::json;

class RunRecordTest : public testing::SmallRunTest {
 protected:
  Json summary() const { return Json::parse(testing::read_text(out() / "run.json")); }

  /// The log's lines.
  std::vector<std::string> log_lines() const { return lines_of(testing::read_text(out() / "simapp.log")); }
};

/// A log line: its UTC time stamp to the millisecond, then the text.
const std::regex stamped(R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC\] (.*))");

/// The texts of the log's lines that are not its start and end lines.
std::vector<std::string> printed_lines(const std::vector<std::string>& log) {
  std::vector<std::string> texts;
  for (const std::string& line : log) {
    std::smatch match;
    EXPECT_TRUE(std::regex_match(line, match, stamped)) << line;
    const std::string text = match[1];
    if (!std::regex_search(text, std::regex(R"(^simapp \S+ \(git \S+\) started: |^simapp ended: )")))
      texts.push_back(text);
  }
  return texts;
}

/// The count of lines of `log` that start a run.
long start_lines(const std::vector<std::string>& log) {
  return std::ranges::count_if(log,
                               [](const std::string& line) { return line.find(") started: ") != std::string::npos; });
}

TEST_F(RunRecordTest, ARunLeavesItsPrintedLinesWithTimesAndASummaryOfWhatItWasAndHowItEnded) {
  for (const int ranks : {1, 2}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    fs::remove_all(out());
    const Outcome outcome =
        simapp("--set time.sim_time=" + sim_time(12) + " --set output.dir=out --set output.every=" + every(4) +
                   " --set output.progress_every=5",
               ranks);
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;

    const std::vector<std::string> log = log_lines();
    ASSERT_GE(log.size(), 3u);
    EXPECT_TRUE(
        std::regex_search(log.front(), std::regex(R"(\] simapp \S+ \(git \S+\) started: .*simapp case\.yaml )"
                                                  R"(--backend host --set time\.sim_time=.* \(host \S+, pid \d+, )" +
                                                  std::to_string(ranks) + " rank")))
        << log.front();
    EXPECT_TRUE(std::regex_search(log.back(), std::regex(R"(\] simapp ended: exit code 0 after [0-9.]+ s$)")))
        << log.back();
    EXPECT_EQ(printed_lines(log), lines_of(outcome.out)) << "the log holds what the run printed, in order";

    const Json run = summary();
    EXPECT_EQ(run["exit_code"], 0);
    EXPECT_EQ(run["outcome"], "success");
    EXPECT_EQ(run["reason"], "completed: step 12 of 12");
    EXPECT_DOUBLE_EQ(run["dt_s"].get<double>(), dt);
    EXPECT_EQ(run["steps"]["total"], 12);
    EXPECT_EQ(run["steps"]["first"], 0);
    EXPECT_EQ(run["steps"]["last"], 12);
    EXPECT_EQ(run["ranks"], ranks);
    EXPECT_EQ(run["placements"].size(), static_cast<std::size_t>(ranks));
    EXPECT_EQ(run["layout"][0].get<int>() * run["layout"][1].get<int>(), ranks);
    EXPECT_EQ(run["backend"], "host");
    EXPECT_EQ(run["config"]["grid"]["nx"], 40);
    EXPECT_EQ(run["config"]["grid"]["nz"], 20);
    EXPECT_EQ(run["config"]["output"]["dir"], "out");
    // The keys of the 3-D model at their 2-D values and perturbation.* not given are not listed.
    EXPECT_FALSE(run["config"]["grid"].contains("ny"));
    EXPECT_FALSE(run["config"]["grid"].contains("ylen"));
    EXPECT_FALSE(run["config"].contains("perturbation"));
    EXPECT_EQ(run["timing"]["steps"], 12);
    EXPECT_EQ(run["last_progress"]["step"], 10);
    // d_mass and d_te are the run's printed ones.
    std::smatch printed;
    ASSERT_TRUE(std::regex_search(outcome.out, printed, std::regex(R"(d_mass: (\S+)\nd_te: (\S+)\n)"))) << outcome.out;
    EXPECT_NEAR(run["d_mass"].get<double>(), std::stod(printed[1]), 1e-6 * std::abs(std::stod(printed[1])) + 1e-300);
    EXPECT_NEAR(run["d_te"].get<double>(), std::stod(printed[2]), 1e-6 * std::abs(std::stod(printed[2])));
  }
}

TEST_F(RunRecordTest, AGivenPerturbationIsInTheSummaryWithAnInfiniteRadiusAsInf) {
  const Outcome outcome =
      simapp("--set time.sim_time=" + sim_time(2) + " --set output.dir=out --set output.every=" + every(2) +
             " --set perturbation.radii=inf,1500 --set perturbation.amplitude=2.5");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const Json run = summary();
  EXPECT_EQ(run["config"]["perturbation"]["radii"], Json::parse(R"(["inf", 1500.0])"));
  EXPECT_EQ(run["config"]["perturbation"]["amplitude"], 2.5);
  EXPECT_FALSE(run["config"]["perturbation"].contains("center"));
}

TEST_F(RunRecordTest, AFailedRunSaysWhyInItsLogAndSummary) {
  // Too long a time step: the health check stops the run.
  const Outcome outcome =
      simapp("--set time.cfl=5 --set time.sim_time=300 --set output.dir=out --set output.every=100");
  ASSERT_EQ(outcome.exit_code, 4) << outcome.err;
  std::smatch error;
  ASSERT_TRUE(std::regex_search(outcome.err, error, std::regex(R"(^simapp: error: (.*the health check failed.*)\n)")))
      << outcome.err;
  const Json run = summary();
  EXPECT_EQ(run["exit_code"], 4);
  EXPECT_EQ(run["outcome"], "numerical failure");
  EXPECT_EQ(run["reason"], error[1].str());
  EXPECT_TRUE(run["timing"].is_null()) << "no timings for a run that did not finish";
  const std::vector<std::string> log = log_lines();
  ASSERT_GE(log.size(), 2u);
  EXPECT_TRUE(log[log.size() - 2].ends_with("] simapp: error: " + error[1].str())) << log[log.size() - 2];
  EXPECT_TRUE(std::regex_search(log.back(), std::regex(R"(\] simapp ended: exit code 4 after [0-9.]+ s$)")))
      << log.back();
}

TEST_F(RunRecordTest, AStoppedRunAndItsRestartContinueOneLogAndTheSummarySaysEachEnd) {
  const std::string arguments = "--set time.sim_time=" + sim_time(1000000) +
                                " --set output.checkpoint_every=" + sim_time(1000000) + " --set output.dir=out";
  const Outcome cut = simapp(arguments + " --set execution.wall_limit=1");
  ASSERT_EQ(cut.exit_code, 5) << cut.err;
  Json run = summary();
  EXPECT_EQ(run["exit_code"], 5);
  EXPECT_EQ(run["outcome"], "interrupted");
  EXPECT_TRUE(std::regex_search(run["reason"].get<std::string>(),
                                std::regex(R"(^stopped by the wall-clock limit .* at step \d+ of 1000000)")))
      << run["reason"];
  const long stopped_at = run["steps"]["last"].get<long>();
  EXPECT_GT(stopped_at, 0);
  // The time it stopped at, a multiple of dt = 5/3 s, to six significant digits: 1273.33 s, not
  // 1273.3333333333333 s.
  std::smatch time;
  ASSERT_TRUE(std::regex_search(cut.out, time, std::regex(R"(at step \d+ of 1000000 \(t = ([0-9.]+) s\))"))) << cut.out;
  EXPECT_EQ(time[1].str(), fmt::format("{:.6g}", static_cast<double>(stopped_at) * dt));
  EXPECT_LE(std::ranges::count_if(time[1].str(), [](char c) { return std::isdigit(c); }), 6) << time[1];

  // Continued to 10 steps past the cut, the log gains the restart's lines; run.json is the restart's.
  const std::string end = sim_time(static_cast<int>(stopped_at) + 10);
  const std::string rest =
      "--set time.sim_time=" + end + " --set output.checkpoint_every=" + end + " --set output.dir=out";
  const Outcome continued = simapp(rest + " --restart latest");
  ASSERT_EQ(continued.exit_code, 0) << continued.err;
  const std::vector<std::string> log = log_lines();
  EXPECT_EQ(start_lines(log), 2);
  const std::vector<std::string> printed = printed_lines(log);
  const std::vector<std::string> first = lines_of(cut.out), second = lines_of(continued.out);
  std::vector<std::string> both = first;
  both.insert(both.end(), second.begin(), second.end());
  EXPECT_EQ(printed, both);
  run = summary();
  EXPECT_EQ(run["exit_code"], 0);
  EXPECT_EQ(run["steps"]["first"], stopped_at);
  EXPECT_EQ(run["steps"]["last"], stopped_at + 10);
  EXPECT_TRUE(run["restarted_from"].get<std::string>().ends_with(".h5")) << run["restarted_from"];
}

TEST_F(RunRecordTest, ARefusedRunLeavesTheEarlierRecordAsItWas) {
  const std::string arguments = "--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=2";
  ASSERT_EQ(simapp(arguments).exit_code, 0);
  const std::string log = testing::read_text(out() / "simapp.log"), run = testing::read_text(out() / "run.json");
  EXPECT_EQ(simapp(arguments).exit_code, 2) << "the earlier results are not overwritten unasked";
  EXPECT_EQ(simapp(arguments + " --set grid.nx=-1 --overwrite").exit_code, 2) << "bad input";
  EXPECT_EQ(testing::read_text(out() / "simapp.log"), log);
  EXPECT_EQ(testing::read_text(out() / "run.json"), run);
  // --overwrite replaces them: one run's log.
  ASSERT_EQ(simapp(arguments + " --overwrite").exit_code, 0);
  EXPECT_EQ(start_lines(log_lines()), 1);
}

TEST_F(RunRecordTest, AUsersFilesOfTheRecordsNamesAreNeverTaken) {
  for (const std::string name : {"simapp.log", "run.json"}) {
    SCOPED_TRACE(name);
    fs::remove_all(out());
    fs::create_directories(out());
    std::ofstream(out() / name) << "{\"my\": \"notes\"}\n";
    const Outcome outcome =
        simapp("--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=2 --overwrite");
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_TRUE(std::regex_search(outcome.err, std::regex("out/" + name))) << outcome.err;
    EXPECT_EQ(testing::read_text(out() / name), "{\"my\": \"notes\"}\n");
    const auto written = std::ranges::count_if(fs::directory_iterator(out()), [](const fs::directory_entry& entry) {
      return !entry.path().filename().string().starts_with(".");  // the run's lock aside
    });
    EXPECT_EQ(written, 1) << "nothing written";
  }
}

TEST_F(RunRecordTest, ValidatePrintsTheResolvedStepsRanksMemoryAndDisk) {
  // 40 x 20 cells, dt = 1.5 * 500 m / 450 m/s; 30 steps with 4 snapshots (steps 0, 10, 20, 30) of
  // the 4 default fields, each 4 * 40 * 20 * 8 B = 25.6 kB, and statistics at each.
  const Outcome outcome = simapp(
      "--validate --set time.sim_time=" + sim_time(30) + " --set output.dir=out --set output.every=" + every(10), 2);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(
      std::regex_search(outcome.out, std::regex(R"(\n  time      sim_time = 50 s, dt = 1\.66667 s \(cfl 1\.5\), )"
                                                R"(30 steps\n)")))
      << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\n  ranks     2 as [12] x [12] )"))) << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\n  memory    \S+ \S+ a rank at most, \S+ \S+ in all; )")))
      << outcome.out;
  EXPECT_TRUE(
      std::regex_search(outcome.out, std::regex(R"(\n  disk      at most \S+ kB in 'out': 4 snapshots of 4 )"
                                                R"(fields \(25\.6 kB each\), no checkpoints, 4 rows of statistics )"
                                                R"(\(\S+ kB\); \S+ \S+ free on )")))
      << outcome.out;
  EXPECT_FALSE(fs::exists(out())) << "--validate writes nothing";
}

}  // namespace
}  // namespace simapp
