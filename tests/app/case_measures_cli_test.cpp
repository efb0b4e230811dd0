/// The density current's measures through the binary: printed at the end of a straka run and
/// written to diagnostics.json, a result simapp replaces with --overwrite and never replaces
/// when a user wrote it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>

#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

using testing::Outcome;

class CaseMeasuresTest : public testing::SmallRunTest {
 protected:
  /// Straka's domain and ν on 800 m cells for 480 s (the cold air has reached the ground).
  static std::string straka() {
    return "--set case=straka --set grid.xlen=51200 --set grid.zlen=6400 --set grid.nx=64 --set grid.nz=8 "
           "--set physics.viscosity=75 --set time.sim_time=480 --set output.every=240 --set output.dir=out";
  }
};

TEST_F(CaseMeasuresTest, StrakaRunPrintsAndWritesItsMeasures) {
  const Outcome outcome = simapp(straka());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::smatch line;
  ASSERT_TRUE(std::regex_search(outcome.out, line,
                                std::regex(R"(density current at t = 480 s: front ([0-9.]+) m from the centre)")))
      << outcome.out;
  const nlohmann::json report = nlohmann::json::parse(testing::read_text(out() / "diagnostics.json"));
  EXPECT_EQ(report["case"], "straka");
  EXPECT_NEAR(report["front_m"].get<double>(), std::stod(line[1]), 0.05);
  EXPECT_LT(report["theta_prime_min_K"].get<double>(), -1.0);
  EXPECT_NEAR(report["u_min_m_per_s"].get<double>(), -report["u_max_m_per_s"].get<double>(), 1e-9)
      << "the two fronts mirror each other (to round-off)";

  EXPECT_EQ(simapp(straka() + " --overwrite").exit_code, 0) << "diagnostics.json is a result simapp replaces";
}

TEST_F(CaseMeasuresTest, AUsersDiagnosticsFileIsNeverReplaced) {
  std::filesystem::create_directories(out());
  std::ofstream(out() / "diagnostics.json") << "my notes\n";
  const Outcome outcome = simapp(straka() + " --overwrite");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_TRUE(
      std::regex_search(outcome.err, std::regex("diagnostics\\.json: named like a result but not written by simapp")))
      << outcome.err;
  EXPECT_EQ(testing::read_text(out() / "diagnostics.json"), "my notes\n");
}

}  // namespace
}  // namespace simapp
