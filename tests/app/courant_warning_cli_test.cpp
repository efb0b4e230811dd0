/// --validate and a run's header warn, in a line of their own, where the run's Courant number is
/// above the largest the scheme was measured stable at for the run's model and hyperviscosity:
/// the limits docs/validation.md gives in "Stable Courant numbers". A warning, not a refusal
/// (exit 0), and none at the default time.cfl or where the diffusive bound keeps dt below the
/// Courant number's.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>

#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

using testing::Outcome;

/// The limit docs/validation.md's "Stable Courant numbers" gives for `model` ("2-D", "3-D") and
/// `hyperviscosity` ("with the default", "without"), from its row `| 2-D | with the default |
/// 1.586 | …`; -1 where it has none.
double documented_limit(const std::string& model, const std::string& hyperviscosity) {
  std::ifstream in(SIMAPP_VALIDATION_DOC);
  EXPECT_TRUE(in) << SIMAPP_VALIDATION_DOC;
  const std::string doc{std::istreambuf_iterator<char>(in), {}};
  const auto section = doc.find("\n## Stable Courant numbers\n");
  EXPECT_NE(section, std::string::npos) << SIMAPP_VALIDATION_DOC << " has no section \"Stable Courant numbers\"";
  if (section == std::string::npos) return -1.0;
  std::smatch row;
  const std::string rest = doc.substr(section);
  if (!std::regex_search(rest, row, std::regex("\n\\| " + model + " \\| " + hyperviscosity + " \\| ([0-9.]+) \\|"))) {
    ADD_FAILURE() << "\"Stable Courant numbers\" has no row for " << model << ", " << hyperviscosity;
    return -1.0;
  }
  return std::stod(row[1]);
}

class CourantWarningTest : public testing::SmallRunTest {
 protected:
  /// `value` to six significant digits, as the warning prints time.cfl.
  static std::string short_text(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
  }

  /// The measured limit a --validate with `arguments` (and `--set time.cfl=cfl` unless `cfl` is
  /// empty) names in its warning line, which says time.cfl is above it for `model` and
  /// `hyperviscosity`; -1 when it has no warning line.
  double warned_limit(const std::string& arguments, const std::string& cfl, const std::string& model,
                      const std::string& hyperviscosity) const {
    const Outcome outcome = simapp("--validate " + (cfl.empty() ? "" : "--set time.cfl=" + cfl + " ") + arguments);
    EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_NE(outcome.out.find("case.yaml: configuration is valid\n"), std::string::npos) << outcome.out;
    EXPECT_EQ(outcome.err, "");
    if (outcome.out.find("warning") == std::string::npos) return -1.0;
    std::smatch limit;
    EXPECT_TRUE(std::regex_search(
        outcome.out, limit,
        std::regex("\n  warning   time\\.cfl = [0-9.]+ is above the largest stable value "
                   "measured for this scheme \\(([0-9.]+) in " +
                   model + " " + hyperviscosity + " hyperviscosity, docs/validation\\.md\\); the run may blow up\n")))
        << outcome.out;
    return limit.empty() ? -1.0 : std::stod(limit[1]);
  }
};

TEST_F(CourantWarningTest, ValidateWarnsAboveTheDocumentedStableLimitAndStillExitsZero) {
  const double limit = documented_limit("2-D", "with the default");
  ASSERT_GT(limit, 0.0);
  EXPECT_EQ(warned_limit("", "20", "2-D", "with the default"), limit);
  EXPECT_EQ(warned_limit("", short_text(limit), "2-D", "with the default"), -1.0) << "the limit itself was healthy";
  EXPECT_EQ(warned_limit("", short_text(limit + 0.001), "2-D", "with the default"), limit);
  EXPECT_EQ(warned_limit("--set grid.ny=8", "20", "3-D", "with the default"),
            documented_limit("3-D", "with the default"));
}

TEST_F(CourantWarningTest, TheDefaultTimeStepWarnsNowhere) {
  EXPECT_EQ(warned_limit("", "", "2-D", "with the default"), -1.0);
  EXPECT_EQ(warned_limit("--set grid.ny=8", "", "3-D", "with the default"), -1.0);
  EXPECT_EQ(warned_limit("--set physics.hyperviscosity=0", "", "2-D", "without"), -1.0);
  EXPECT_EQ(warned_limit("--set physics.hyperviscosity=0 --set grid.ny=8", "", "3-D", "without"), -1.0);
}

TEST_F(CourantWarningTest, WithoutHyperviscosityTheLimitMeasuredWithoutItApplies) {
  const double without = documented_limit("2-D", "without");
  ASSERT_GT(without, 0.0);
  EXPECT_EQ(warned_limit("--set physics.hyperviscosity=0", "20", "2-D", "without"), without);
  // A weaker hyperviscosity than the default's is held to the limit without.
  EXPECT_EQ(warned_limit("--set physics.hyperviscosity=0.01", "20", "2-D", "without"), without);
  EXPECT_EQ(warned_limit("--set physics.hyperviscosity=0 --set grid.ny=8", "20", "3-D", "without"),
            documented_limit("3-D", "without"));
}

TEST_F(CourantWarningTest, NoWarningWhereDiffusionKeepsTheTimeStepShort) {
  // dt = 0.25 · (500 m)² / 1e5 m² s⁻¹ = 0.625 s: a Courant number of 0.5625, whatever time.cfl says.
  EXPECT_EQ(warned_limit("--set physics.viscosity=100000", "20", "2-D", "with the default"), -1.0);
}

TEST_F(CourantWarningTest, TheRunsHeaderWarnsBeforeTheRunBlowsUp) {
  const Outcome outcome = simapp("--set time.cfl=20 --set time.sim_time=300");
  EXPECT_EQ(outcome.exit_code, 4) << outcome.err;
  EXPECT_TRUE(std::regex_search(
      outcome.out, std::regex("\n  time      sim_time = 300 s, dt = 22\\.2222 s \\(cfl 20\\), 14 steps[^\n]*\n"
                              "  warning   time\\.cfl = 20 is above the largest stable value measured "
                              "for this scheme \\([0-9.]+ in 2-D with the default hyperviscosity, "
                              "docs/validation\\.md\\); the run may blow up\n")))
      << outcome.out;
  EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: step \\d+ [^\n]*health check[^\n]*\n")))
      << "the error stays the one line on stderr: " << outcome.err;
  const Outcome healthy = simapp("--set time.sim_time=" + sim_time(3));
  ASSERT_EQ(healthy.exit_code, 0) << healthy.err;
  EXPECT_EQ(healthy.out.find("warning"), std::string::npos) << healthy.out;
}

}  // namespace
}  // namespace simapp
