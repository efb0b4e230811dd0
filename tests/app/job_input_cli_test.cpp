/// The ranks of a job act on one input, rank 0's, through the real binary under mpiexec: a
/// configuration only rank 0 can read (stdin, which mpirun gives rank 0 alone; a file on rank
/// 0's node only) runs on every rank, a different file on another rank changes nothing, and a
/// configuration rank 0 cannot read ends the whole job at once with one line. Each run is bounded
/// in time, so a job that hangs fails.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_reader.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class JobInputTest : public testing::SmallRunTest {
 protected:
  /// The options of a short run writing its last snapshot into `directory`.
  static std::string short_run(const std::string& directory) {
    return " --backend host --set time.sim_time=" + sim_time(6) + " --set output.every=" + every(6) +
           " --set output.dir=" + directory;
  }

  /// simapp on 2 ranks, rank 0 given `rank0_config` and rank 1 `rank1_config`, with `options`.
  Outcome on_two_ranks(const std::string& rank0_config, const std::string& rank1_config,
                       const std::string& options) const {
    return run("timeout 60 " + launcher(2) + "sh -c 'if [ \"$OMPI_COMM_WORLD_RANK\" = 0 ]; then exec " + binary() +
               " " + rank0_config + options + "; else exec " + binary() + " " + rank1_config + options + "; fi'");
  }

  /// Expects the final snapshot of `directory` to equal the one-rank run's, bit for bit.
  void expect_as_one_rank(const std::string& directory) const {
    const Outcome reference = simapp(short_run("reference"));
    ASSERT_EQ(reference.exit_code, 0) << reference.err;
    for (const char* field : {"rho_prime", "u", "w", "theta_prime"}) {
      const std::vector<double> a = io::read_dataset(directory_ / "reference" / "fields_000006.nc", field);
      const std::vector<double> b = io::read_dataset(directory_ / directory / "fields_000006.nc", field);
      ASSERT_EQ(a.size(), b.size()) << field;
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << field;
    }
  }
};

TEST_F(JobInputTest, AConfigurationOnStandardInputReachesEveryRank) {
  const Outcome outcome =
      run("timeout 60 " + launcher(2) + binary() + " /dev/stdin" + short_run("piped") + " < case.yaml");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex("\nd_te: "))) << outcome.out;
  expect_as_one_rank("piped");
}

TEST_F(JobInputTest, AFileOnlyRankZeroCanReadIsTheJobsConfiguration) {
  const Outcome outcome = on_two_ranks("case.yaml", "not_on_this_node.yaml", short_run("alone"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  expect_as_one_rank("alone");
}

TEST_F(JobInputTest, AnotherRanksOwnFileChangesNothing) {
  std::ofstream(directory_ / "other.yaml") << "case: thermal\ngrid:\n  nx: 48\n  nz: 20\n";
  const Outcome outcome = on_two_ranks("case.yaml", "other.yaml", short_run("mixed"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex("grid +40 x 20 cells"))) << outcome.out;
  expect_as_one_rank("mixed");
}

TEST_F(JobInputTest, AConfigurationRankZeroCannotReadEndsTheJobWithOneLine) {
  const Outcome outcome = on_two_ranks("not_on_this_node.yaml", "case.yaml", short_run("never"));
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_TRUE(std::regex_search(without_launcher_notices(outcome.err),
                                std::regex("^simapp: error: not_on_this_node\\.yaml: cannot read configuration file "
                                           "\\(No such file or directory\\)\n")))
      << outcome.err;
  EXPECT_EQ(std::regex_search(outcome.err, std::regex("simapp: error:.*\n.*simapp: error:")), false)
      << "printed once: " << outcome.err;
  EXPECT_FALSE(fs::exists(directory_ / "never"));
}

}  // namespace
}  // namespace simapp
