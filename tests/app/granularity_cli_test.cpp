/// execution.granularity through the real binary: auto, the default, is made concrete once at
/// set-up (stage on the host backend, which is all this suite has; the CUDA rule is
/// GranularityChoiceTest's) and named with why in --plan, --validate, the run's header, run.json
/// and timing.json; a granularity given is named as it is.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

using testing::Outcome;
using Json = nlohmann::json;

class GranularityTest : public testing::SmallRunTest {};

const std::string host_auto =
    "stage (auto: the host backend, where the stage kernels are faster than the pass kernels)";

TEST_F(GranularityTest, PlanAndValidateNameWhatAutoChose) {
  const Outcome plan = simapp("--plan");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("plan: case thermal, 40 x 20 cells, 600 steps, granularity " + host_auto + ", mode graph\n"),
            std::string::npos)
      << plan.out;
  EXPECT_NE(plan.out.find("kernels per step:      6\n"), std::string::npos) << plan.out;  // the stage kernels

  const Outcome validate = simapp("--validate");
  ASSERT_EQ(validate.exit_code, 0) << validate.err;
  EXPECT_NE(validate.out.find("\n  steps     mode graph, granularity " + host_auto + "\n"), std::string::npos)
      << validate.out;

  // Given, a granularity is named alone, and the pass kernels run on the host too.
  const Outcome pass = simapp("--plan --set execution.granularity=pass");
  ASSERT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_NE(pass.out.find(", granularity pass, mode graph\n"), std::string::npos) << pass.out;
  EXPECT_NE(pass.out.find("kernels per step:      2\n"), std::string::npos) << pass.out;
  const Outcome asked = simapp("--plan --set execution.granularity=auto");
  EXPECT_EQ(asked.out, plan.out);
}

TEST_F(GranularityTest, TheRunsHeaderAndRecordNameWhatAutoChose) {
  const Outcome run =
      simapp("--set time.sim_time=" + sim_time(3) + " --set output.dir=out --set output.every=" + every(3));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n  steps     mode graph, granularity " + host_auto + ", 6 kernels per step, "),
            std::string::npos)
      << run.out;
  const Json summary = Json::parse(testing::read_text(out() / "run.json"));
  EXPECT_EQ(summary["granularity"], host_auto);
  EXPECT_EQ(summary["config"]["execution"]["granularity"], "stage");  // the resolved configuration

  const Outcome fused = simapp("--set time.sim_time=" + sim_time(3) + " --set execution.granularity=fused");
  ASSERT_EQ(fused.exit_code, 0) << fused.err;
  EXPECT_NE(fused.out.find("\n  steps     mode graph, granularity fused, 18 kernels per step, "), std::string::npos)
      << fused.out;
}

TEST_F(GranularityTest, CompareNamesWhatAutoChoseInItsLineAndTimingJson) {
  const Outcome compare = simapp(
      "--mode compare --set execution.compare=eager --set execution.repeats=1 "
      "--set output.dir=out --set time.sim_time=" +
      sim_time(4));
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find(" cells, granularity " + host_auto + ", backend host"), std::string::npos) << compare.out;
  const Json report = Json::parse(testing::read_text(out() / "timing.json"));
  EXPECT_EQ(report["granularity"], "stage");
  EXPECT_EQ(report["granularity_reason"],
            "auto: the host backend, where the stage kernels are faster than the pass kernels");

  const Outcome given = simapp(
      "--mode compare --set execution.compare=eager --set execution.repeats=1 "
      "--set execution.granularity=pass --set output.dir=given --set time.sim_time=" +
      sim_time(4));
  ASSERT_EQ(given.exit_code, 0) << given.err;
  const Json given_report = Json::parse(testing::read_text(directory_ / "given" / "timing.json"));
  EXPECT_EQ(given_report["granularity"], "pass");
  EXPECT_EQ(given_report["granularity_reason"], "as configured");
}

}  // namespace
}  // namespace simapp
