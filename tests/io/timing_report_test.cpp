/// timing.json's shape on a made-up comparison: every sample, the summary of each mode, speed-ups
/// and break-even as medians with ranges, and the modes within each other's noise.
#include "io/timing/timing_report.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simapp::io {
namespace {

TEST(TimingReportTest, EveryModeCarriesItsSamplesTheirSummaryAndRangedFigures) {
  ModeComparison comparison;
  comparison.rounds = 3;
  const std::vector<std::pair<ExecutionMode, std::vector<double>>> modes{{ExecutionMode::eager, {100.0, 110.0, 104.0}},
                                                                         {ExecutionMode::graph, {52.0, 50.0, 60.0}}};
  for (const auto& [mode, microseconds] : modes) {
    ModeTiming& timing = comparison.modes.emplace_back();
    timing.mode = mode;
    timing.steps = 200;
    for (const double us : microseconds) timing.seconds_per_step.push_back(us * 1e-6);
    timing.per_step = summarize(timing.seconds_per_step);
  }
  comparison.modes[1].stats.captures = 2;
  comparison.modes[1].stats.nodes_per_graph = {249, 27};
  comparison.modes[1].stats.instantiate_seconds = 2e-3;
  const nlohmann::json report = timing_json(RunSpec{}, comparison, TimingContext{"host", "CPU", 1, {1, 1}, {}, {}});

  EXPECT_EQ(report.at("repeats"), 3);
  const nlohmann::json& graph = report.at("modes").at(1);
  EXPECT_EQ(graph.at("mode"), "graph");
  EXPECT_DOUBLE_EQ(graph.at("time_per_step_us").get<double>(), 52.0);  // the median
  EXPECT_EQ(graph.at("time_per_step_samples_us").size(), 3u);
  EXPECT_DOUBLE_EQ(graph.at("time_per_step_samples_us").at(0).get<double>(), 52.0);  // in the order taken
  const nlohmann::json& summary = graph.at("time_per_step");
  EXPECT_DOUBLE_EQ(summary.at("min_us").get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(summary.at("max_us").get<double>(), 60.0);
  EXPECT_DOUBLE_EQ(summary.at("relative_spread").get<double>(), 10.0 / 52.0);
  for (const char* key : {"median_us", "q1_us", "q3_us", "median_low_us", "median_high_us"})
    EXPECT_TRUE(summary.at(key).is_number()) << key;
  EXPECT_DOUBLE_EQ(graph.at("speedup_vs_eager").get<double>(), 104.0 / 52.0);
  EXPECT_DOUBLE_EQ(graph.at("speedup_vs_eager_range").at(0).get<double>(), 100.0 / 60.0);
  EXPECT_DOUBLE_EQ(graph.at("speedup_vs_eager_range").at(1).get<double>(), 110.0 / 50.0);
  EXPECT_TRUE(graph.at("speedup_vs_eager_sync").is_null()) << "eager_sync was not timed";
  EXPECT_TRUE(graph.at("speedup_vs_eager_sync_range").is_null());
  EXPECT_NEAR(graph.at("break_even_steps").get<double>(), 2e-3 / 52e-6, 1e-9);
  EXPECT_EQ(graph.at("break_even_steps_range").size(), 2u);
  EXPECT_TRUE(graph.at("within_noise_of").empty());
  EXPECT_FALSE(report.at("modes").at(0).contains("break_even_steps")) << "eager captures nothing";
}

}  // namespace
}  // namespace simapp::io
