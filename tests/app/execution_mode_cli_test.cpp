/// Execution modes through the real binary: compare's subset (execution.compare), modes
/// skipped with the reason, timing.json's figures consistent with each other, graphs all
/// captured before stepping, and persistent's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

using testing::Outcome;

class ExecutionModeTest : public testing::SmallRunTest {
 protected:
  /// Expects exit code 2 and one line on stderr matching `pattern`.
  static void expect_one_line_error(const Outcome& outcome, const std::string& pattern) {
    EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
    EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: execution\\.mode: " + pattern + "[^\n]*\n")))
        << outcome.err;
  }
};

TEST_F(ExecutionModeTest, RoundsGoOnUntilTheNoiseTargetOrItsTimeCap) {
  // A target no timing meets: rounds after the first go on until the cap, each saying why.
  const Outcome outcome =
      simapp("--mode compare --set execution.compare=eager,graph --set time.sim_time=" + sim_time(12) +
             " --set output.dir=out --set execution.repeats=1 "
             "--set execution.max_noise=1e-9 --set execution.max_noise_time=2");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\nround 1 of 1: eager graph\n)"))) << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\nround 2 of 2 \(until every median is known to 1e-07 %\): )"
                                                        R"(graph eager\n)")))
      << outcome.out;
  const nlohmann::json report = nlohmann::json::parse(testing::read_text(out() / "timing.json"));
  EXPECT_GE(report["repeats"].get<int>(), 2);
  for (const nlohmann::json& mode : report["modes"])
    EXPECT_EQ(mode["time_per_step_samples_us"].size(), report["repeats"].get<std::size_t>());
}

TEST_F(ExecutionModeTest, TimesTheModesAskedForInTheirOrderAndSaysWhyOthersAreSkipped) {
  const Outcome outcome =
      simapp("--mode compare --set execution.compare=graph,eager,persistent --set time.sim_time=" + sim_time(12) +
             " --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\npersistent +skipped: persistent needs the CUDA backend)")))
      << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\ngraph +\d+ +[0-9,]+ +[0-9.]+ +[0-9.]+  (\d+|never) \()")))
      << "the graphs table with graph's break-even: " << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\n5 rounds, each timing every mode once, in turn)")))
      << outcome.out;

  const nlohmann::json report = nlohmann::json::parse(testing::read_text(out() / "timing.json"));
  ASSERT_EQ(report["modes"].size(), 2u);
  const nlohmann::json& graph = report["modes"][0];
  const nlohmann::json& eager = report["modes"][1];
  EXPECT_EQ(graph["mode"], "graph");
  EXPECT_EQ(eager["mode"], "eager");
  EXPECT_TRUE(report["identical"].get<bool>());
  ASSERT_EQ(report["skipped"].size(), 1u);
  EXPECT_EQ(report["skipped"][0]["mode"], "persistent");

  // Ratios are of the times the report gives; a baseline not timed has none.
  EXPECT_TRUE(graph["speedup_vs_eager_sync"].is_null());
  EXPECT_DOUBLE_EQ(graph["speedup_vs_eager"].get<double>(),
                   eager["time_per_step_us"].get<double>() / graph["time_per_step_us"].get<double>());
  EXPECT_DOUBLE_EQ(eager["speedup_vs_eager"].get<double>(), 1.0);
  // Each mode timed once a round, its time per step the median of those runs.
  EXPECT_EQ(report["repeats"], 5);
  for (const nlohmann::json* mode : {&graph, &eager}) {
    EXPECT_EQ((*mode)["steps"], 12);
    std::vector<double> samples = (*mode)["time_per_step_samples_us"].get<std::vector<double>>();
    ASSERT_EQ(samples.size(), 5u);
    EXPECT_DOUBLE_EQ(samples.front(), (*mode)["seconds"].get<double>() / 12 * 1e6);
    std::ranges::sort(samples);
    EXPECT_DOUBLE_EQ((*mode)["time_per_step_us"].get<double>(), samples[2]);
  }
  // Graphs are captured once each (before timing) and counted apart from eager's none.
  EXPECT_GE(graph["captures"].get<int>(), 1);
  EXPECT_EQ(graph["graphs"], graph["captures"]);
  EXPECT_EQ(eager["captures"], 0);
  EXPECT_FALSE(eager.contains("break_even_steps"));
  EXPECT_TRUE(graph.contains("break_even_steps"));
}

TEST_F(ExecutionModeTest, EveryGraphIsCapturedBeforeTheFirstStepEvenWhereOutputsAndProgressCutChunksShort) {
  // 4 steps per graph; snapshots every 3 steps and progress every 5 cut chunks to 1, 2 and 3 steps of
  // either parity, and the run ends after 14 steps.
  const Outcome outcome =
      simapp("--mode graph --set execution.steps_per_graph=4 --set output.every=" + every(3) +
             " --set output.progress_every=5 --set time.sim_time=" + sim_time(14) + " --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::smatch graphs;
  ASSERT_TRUE(std::regex_search(
      outcome.out, graphs,
      std::regex(R"(graphs: (\d+) captured and \d+ instantiated before stepping \(\d+ to \d+ nodes\), )"
                 R"((\d+) captured while stepping)")))
      << outcome.out;
  EXPECT_GE(std::stoi(graphs[1]), 4);  // chunks of 1, 2, 3 and 4 steps at least
  EXPECT_EQ(graphs[2], "0");
}

TEST_F(ExecutionModeTest, AnUnknownModeInTheSubsetIsAnInputError) {
  const Outcome outcome = simapp("--mode compare --set execution.compare=graph,persistant");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(
      std::regex_match(outcome.err, std::regex(R"(simapp: error: [^\n]*execution\.compare[^\n]*'persistent'[^\n]*\n)")))
      << outcome.err;
}

TEST_F(ExecutionModeTest, PersistentNeedsStageOrPassGranularity) {
  expect_one_line_error(
      simapp("--mode persistent --set execution.granularity=fused"),
      R"(persistent runs the stage and pass kernels' tiles [^\n]*needs execution\.granularity: stage or pass, not fused)");
}

TEST_F(ExecutionModeTest, PersistentOnTheHostIsAnInputError) {
  expect_one_line_error(simapp("--mode persistent"), "persistent needs the CUDA backend, but this run uses host");
}

TEST_F(ExecutionModeTest, PersistentClusterOnTheHostIsAnInputErrorAndCompareSkipsIt) {
  expect_one_line_error(simapp("--mode persistent_cluster"),
                        "persistent_cluster needs the CUDA backend, but this run uses host");
  const Outcome outcome =
      simapp("--mode compare --set execution.compare=eager,persistent_cluster --set time.sim_time=" + sim_time(4) +
             " --set output.dir=out --set execution.repeats=1");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(
persistent_cluster +skipped: persistent_cluster needs the CUDA backend)")))
      << outcome.out;
}

TEST_F(ExecutionModeTest, AutoIsMadeConcreteAndNamedWithItsReason) {
  const std::string reason = R"(mode graph \(auto: the host backend, where every mode runs the kernels one after )"
                             R"(another\))";
  const Outcome plan = simapp("--mode auto --plan");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_TRUE(std::regex_search(plan.out, std::regex(reason))) << plan.out;
  const Outcome run = simapp("--mode auto --set time.sim_time=" + sim_time(2) + " --set output.dir=out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(
  steps     )" + reason)))
      << run.out;
}

TEST_F(ExecutionModeTest, AutoIsNoModeCompareTimes) {
  const Outcome outcome = simapp("--mode compare --set execution.compare=graph,auto");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(
      std::regex_match(outcome.err, std::regex(R"(simapp: error: [^\n]*execution\.compare[^\n]*'auto'[^\n]*\n)")))
      << outcome.err;
}

TEST_F(ExecutionModeTest, PersistentOnTwoRanksIsAnInputError) {
  const Outcome outcome = simapp("--mode persistent", 2);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  // One line for the job (mpiexec adds its own note about the exit code).
  EXPECT_TRUE(
      std::regex_search(outcome.err, std::regex("^simapp: error: execution\\.mode: persistent runs on one rank: "
                                                "halos between ranks would have to travel inside the kernel[^\n]*\n"
                                                "(?!simapp: error)")))
      << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out()));
}

/// parallel.halo: auto is the default; the header says what it chose and why, and an explicit
/// choice is marked as configured.
TEST_F(ExecutionModeTest, TheHeaderSaysWhichHaloTransportAutoChoseAndWhy) {
  const Outcome chosen = simapp("", 2);
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_TRUE(std::regex_search(
      chosen.out, std::regex(R"(ranks +2 as 2 x 1 .*, halos by MPI from host memory \(auto: the host backend\)\n)")))
      << chosen.out;
  const Outcome configured = simapp("--set parallel.halo=mpi", 2);
  ASSERT_EQ(configured.exit_code, 0) << configured.err;
  EXPECT_TRUE(std::regex_search(configured.out, std::regex(R"(halos by MPI from host memory \(as configured\)\n)")))
      << configured.out;
}

/// The number after `label` in `text` (-1 when absent).
long number_after(const std::string& text, const std::string& label) {
  std::smatch found;
  if (!std::regex_search(text, found, std::regex(label + R"( *([0-9]+))"))) return -1;
  return std::stol(found[1]);
}

/// `--plan` describes the step the run then takes: its kernels per step, host operations and
/// graphs are what the run's summary counts, for every granularity and on 1 and 2 ranks.
TEST_F(ExecutionModeTest, ThePlanCountsWhatTheRunDoes) {
  for (const char* granularity : {"fine", "fused", "stage"})
    for (const int ranks : {1, 2}) {
      SCOPED_TRACE(std::string(granularity) + ", " + std::to_string(ranks) + " rank(s)");
      const std::string arguments =
          std::string("--set execution.granularity=") + granularity + " --set time.sim_time=" + sim_time(7) + "";
      const Outcome plan = simapp("--plan " + arguments, ranks);
      ASSERT_EQ(plan.exit_code, 0) << plan.err;
      const Outcome run = simapp(arguments, ranks);
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const long kernels = number_after(plan.out, "kernels per step:");
      EXPECT_GT(kernels, 0) << plan.out;
      EXPECT_EQ(number_after(run.out, R"(timing: 7 steps in [0-9.]+ s, [0-9.]+ ms/step,)"), kernels) << run.out;
      const long graphs = number_after(plan.out, "graphs to capture:");
      EXPECT_GT(graphs, 0) << plan.out;
      EXPECT_EQ(number_after(run.out, "graphs:"), graphs) << plan.out << run.out;
      const long host_ops = number_after(plan.out, "host ops per step:");
      EXPECT_EQ(host_ops > 0, ranks > 1) << plan.out;
      EXPECT_EQ(host_ops, ranks == 1 ? 0 : number_after(run.out, R"(graph launches, )") / 7) << plan.out << run.out;
    }
}

}  // namespace
}  // namespace simapp
