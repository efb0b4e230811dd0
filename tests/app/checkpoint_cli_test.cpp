/// Restarting the real binary from damaged, foreign or hostile checkpoint files: each is
/// refused with exit code 2 and one line naming the file and what is wrong with it (or, for
/// files that are not checkpoints, ignored), never accepted with wrong results, never a crash
/// or a hang; and a run never deletes files that are not its checkpoints.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <string>

#include "io/checkpoint/checkpoint.hpp"
#include "kernels/physics/variables.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/checkpoint_files.hpp"
#include "tests/support/launch_environment.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class CheckpointCliTest : public testing::BinaryTest {
 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    write_config("case.yaml", "thermal", 40, 20);
  }

  void write_config(const std::string& name, const std::string& case_name, int nx, int nz,
                    double xlen = 20000.0) const {
    std::ofstream(directory_ / name) << "case: " << case_name << "\ngrid:\n  nx: " << nx << "\n  nz: " << nz
                                     << "\n  xlen: " << xlen << "\noutput:\n  dir: out\n";
  }

  /// Runs simapp with `config` on `ranks` MPI ranks (1: without mpiexec), stopped after 20 s.
  Outcome simapp(const std::string& arguments, int ranks = 1, const std::string& config = "case.yaml") const {
    const std::string launcher =
        ranks == 1
            ? "OMP_NUM_THREADS=1 timeout 20 "
            : "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
              "OMPI_MCA_rmaps_base_oversubscribe=1 " +
                  testing::launch_environment + "timeout 60 " + std::string(SIMAPP_MPIEXEC) + " -n " +
                  std::to_string(ranks) + " ";
    return run(launcher + SIMAPP_BINARY + " " + config + " --backend host " + arguments);
  }

  /// The options of a run of `count` steps (dt = 5/3 s at 40 x 20) with a checkpoint every 3.
  static std::string steps(int count) {
    return "--set time.sim_time=" + std::to_string(count * 5 / 3) + " --set output.checkpoint_every=5";
  }

  /// 6 steps, leaving out/checkpoint_000006.h5.
  fs::path checkpointed_run(const std::string& config = "case.yaml") const {
    const Outcome outcome = simapp(steps(6), 1, config);
    EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_TRUE(fs::exists(checkpoint()));
    return checkpoint();
  }

  /// Continues the run to step 9 from `which`.
  Outcome restart(const std::string& which = "latest", int ranks = 1, const std::string& config = "case.yaml") const {
    return simapp(steps(9) + " --restart " + which, ranks, config);
  }

  fs::path out() const { return directory_ / "out"; }
  fs::path checkpoint() const { return out() / "checkpoint_000006.h5"; }
};

/// Exit code 2 and one line `simapp: error: <where>: <what>` where `pattern` matches.
void expect_refused(const Outcome& outcome, const std::string& pattern) {
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out << outcome.err;
  EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex("^simapp: error: " + pattern + "\n$"))) << outcome.err;
}

TEST_F(CheckpointCliTest, IntactCheckpointContinuesTheRunBitForBit) {
  ASSERT_EQ(simapp(steps(9)).exit_code, 0);
  const std::vector<double> uninterrupted =
      io::read_checkpoint_block(out() / "checkpoint_000009.h5", RankBox{40, 20, 0, 0});
  fs::remove_all(out());
  for (int ranks : {1, 4}) {
    checkpointed_run();
    const Outcome outcome = restart("latest", ranks);
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(restarting from out/checkpoint_000006\.h5 at step 6)")))
        << outcome.out;
    EXPECT_FALSE(fs::exists(checkpoint())) << "the older checkpoint goes once the newer one is complete";
    const std::vector<double> restarted =
        io::read_checkpoint_block(out() / "checkpoint_000009.h5", RankBox{40, 20, 0, 0});
    ASSERT_EQ(restarted.size(), uninterrupted.size());
    EXPECT_EQ(std::memcmp(restarted.data(), uninterrupted.data(), restarted.size() * sizeof(double)), 0)
        << ranks << " rank(s)";
    fs::remove_all(out());
  }
}

TEST_F(CheckpointCliTest, ALongerRunContinuesFromAShortenedLastStepWithItsDt) {
  // 11 s is 6.6 steps of 5/3 s: 7 steps, the last 1 s; the checkpoint at its end is not on the
  // step grid of a 20 s run (step 7 would end at 11.67 s there).
  ASSERT_EQ(simapp("--set time.sim_time=11 --set output.checkpoint_every=5").exit_code, 0);
  ASSERT_TRUE(fs::exists(out() / "checkpoint_000007.h5"));
  const Outcome outcome = simapp("--set time.sim_time=20 --set output.checkpoint_every=5 --restart latest");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(
      std::regex_search(outcome.out, std::regex(R"(restarting from out/checkpoint_000007\.h5 at step 7 \(t = 11 s\); )"
                                                R"(that time is not on this run's step grid)")))
      << outcome.out;
  // 9 s left: 6 steps of 5/3 s, the last 2/3 s, ending on 20 s.
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(timing: 6 steps in )"))) << outcome.out;
  const io::CheckpointHeader end = io::read_checkpoint_header(out() / "checkpoint_000013.h5");
  EXPECT_EQ(end.step, 13);
  EXPECT_EQ(end.time, 20.0);
  // A run shorter than the checkpoint is still refused.
  expect_refused(simapp("--set time.sim_time=10 --restart out/checkpoint_000013.h5"),
                 R"(out/checkpoint_000013\.h5: checkpoint at step 13 \(t = 20 s\) does not fit this run's 6 steps: it )"
                 R"(is at or past the run's sim_time = 10 s)");
}

TEST_F(CheckpointCliTest, A3DRunContinuesBitForBitAndIsNotContinuedAs2D) {
  // 40 x 8 x 20 cells of 500 m: dt = 5/3 s as in 2-D.
  const std::string three_d = " --set grid.ny=8 --set grid.ylen=4000";
  ASSERT_EQ(simapp(steps(9) + three_d).exit_code, 0);
  const RankBox whole{40, 20, 0, 0, 8, 0};
  const std::vector<double> uninterrupted = io::read_checkpoint_block(out() / "checkpoint_000009.h5", whole);
  EXPECT_EQ(uninterrupted.size(), 5u * 40 * 8 * 20);
  fs::remove_all(out());
  ASSERT_EQ(simapp(steps(6) + three_d).exit_code, 0);
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: a checkpoint of the 3-D model \(ny = 8\); this run is 2-D )"
                            R"(\(grid\.ny = 1\))");
  const Outcome outcome = simapp(steps(9) + three_d + " --restart latest");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::vector<double> restarted = io::read_checkpoint_block(out() / "checkpoint_000009.h5", whole);
  ASSERT_EQ(restarted.size(), uninterrupted.size());
  EXPECT_EQ(std::memcmp(restarted.data(), uninterrupted.data(), restarted.size() * sizeof(double)), 0);
  fs::remove_all(out());
  checkpointed_run();
  expect_refused(
      simapp(steps(9) + three_d + " --restart latest"),
      R"(out/checkpoint_000006\.h5: a checkpoint of the 2-D model \(ny = 1\); this run is 3-D \(grid\.ny = 8\))");
}

// 1. Checksums: damaged data and damaged header values.

TEST_F(CheckpointCliTest, FlippedBitInTheStateIsRefused) {
  testing::flip_state_bit(checkpointed_run());
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: /state fails its checksum \(corrupted\))");
}

TEST_F(CheckpointCliTest, ZeroedBytesInTheStateAreRefused) {
  testing::zero_state_bytes(checkpointed_run());
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: /state fails its checksum \(corrupted\))");
}

TEST_F(CheckpointCliTest, ChangedHeaderValueIsRefused) {
  const fs::path path = checkpointed_run();
  testing::set_attribute(path, "initial_mass", testing::attribute(path, "initial_mass") * (1.0 + 1e-12));
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: header attributes fail their checksum \(corrupted\))");
}

// 2. Types and shapes.

TEST_F(CheckpointCliTest, StateStoredAsFloat32IsRefused) {
  testing::rewrite_state_as(checkpointed_run(), H5T_IEEE_F32LE);
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: /state holds float32 values; expected 64-bit IEEE floats)");
}

TEST_F(CheckpointCliTest, StateStoredAsInt32IsRefused) {
  testing::rewrite_state_as(checkpointed_run(), H5T_STD_I32LE);
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: /state holds int32 values; expected 64-bit IEEE floats)");
}

TEST_F(CheckpointCliTest, StateOfAnotherShapeIsRefused) {
  testing::replace_state(checkpointed_run(), H5T_IEEE_F64LE, {4, 20, 41});
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: /state has shape 4 x 20 x 41; expected 4 x 20 x 40 .*)");
}

// 3. Values that are not finite.

TEST_F(CheckpointCliTest, NanInitialMassIsRefused) {
  testing::set_attribute(checkpointed_run(), "initial_mass", std::numeric_limits<double>::quiet_NaN());
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: attribute initial_mass is not finite \(nan\))");
}

TEST_F(CheckpointCliTest, InfiniteInitialTotalEnergyIsRefused) {
  testing::set_attribute(checkpointed_run(), "initial_total_energy", -std::numeric_limits<double>::infinity());
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: attribute initial_total_energy is not finite \(-inf\))");
}

TEST_F(CheckpointCliTest, NonFiniteStateValueIsRefusedNamingVariableAndCell) {
  testing::set_state_value(checkpointed_run(), var::rhot, 3, 7, std::numeric_limits<double>::quiet_NaN());
  expect_refused(restart(),
                 R"(out/checkpoint_000006\.h5: /state: rhot is not finite \(nan\) at cell \(i, k\) = \(7, 3\))");
}

TEST_F(CheckpointCliTest, NonFiniteStateValueIsRefusedOnTheRankThatReadsIt) {
  testing::set_state_value(checkpointed_run(), var::umom, 18, 33, std::numeric_limits<double>::infinity());
  const Outcome outcome = restart("latest", 4);
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex(R"(umom is not finite \(inf\) at cell \(i, k\) = \(33, 18\))")))
      << outcome.err;
}

// 4. Incompatible configurations, named.

TEST_F(CheckpointCliTest, CheckpointOfAnotherCaseIsRefusedNamingBoth) {
  write_config("collision.yaml", "collision", 40, 20);
  checkpointed_run("collision.yaml");
  expect_refused(restart(),
                 R"(out/checkpoint_000006\.h5: checkpoint of case collision, but the configuration's case is thermal)");
}

TEST_F(CheckpointCliTest, CheckpointOfAnotherGridIsRefusedNamingBoth) {
  write_config("wide.yaml", "thermal", 48, 20);  // dx = 417 m: 8 steps in 10 s
  ASSERT_EQ(simapp(steps(6), 1, "wide.yaml").exit_code, 0);
  expect_refused(restart(), R"(out/checkpoint_000008\.h5: checkpoint of an incompatible configuration: )"
                            R"(grid 48 x 20 vs 40 x 20 \(checkpoint vs configuration\))");
}

TEST_F(CheckpointCliTest, CheckpointOfAnotherDomainIsRefusedNamingBoth) {
  write_config("long.yaml", "thermal", 40, 20, 30000.0);  // dx = 750 m, dt as at dx = 500 m
  checkpointed_run("long.yaml");
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: checkpoint of an incompatible configuration: )"
                            R"(domain 30000 x 10000 m vs 20000 x 10000 m \(checkpoint vs configuration\))");
}

TEST_F(CheckpointCliTest, CheckpointOfOtherPhysicsIsRefusedNamingBoth) {
  const Outcome viscous = simapp(steps(6) + " --set physics.viscosity=10 --set physics.hyperviscosity=0.1");
  ASSERT_EQ(viscous.exit_code, 0) << viscous.err;
  expect_refused(restart(), R"(out/checkpoint_000006\.h5: checkpoint of an incompatible configuration: )"
                            R"(physics\.viscosity 10 vs 0 m²/s; physics\.hyperviscosity 0\.1 vs 0\.05 )"
                            R"(\(checkpoint vs configuration\))");
  // The same physics continues.
  const Outcome same =
      simapp(steps(9) + " --restart latest --set physics.viscosity=10 --set physics.hyperviscosity=0.1");
  EXPECT_EQ(same.exit_code, 0) << same.err;
}

TEST_F(CheckpointCliTest, CheckpointOfAnotherCourantNumberIsRefusedNamingBoth) {
  // Another time.cfl makes another dt: the continuation's step numbers would not match t / dt.
  const Outcome other = simapp(steps(6) + " --set time.cfl=1");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  expect_refused(restart(), R"(out/checkpoint_\d+\.h5: checkpoint of an incompatible configuration: )"
                            R"(time\.cfl 1 vs 1\.5 \(checkpoint vs configuration\))");
}

TEST_F(CheckpointCliTest, CheckpointOfAnotherPerturbationIsRefusedNamingTheKey) {
  // gravity_waves' bump is the wave source every stage adds: another one is another run. Its
  // own bump at 40 x 20 cells of 500 m: amplitude 0.01, centre [2500, 1000], radii [500, 500].
  write_config("waves.yaml", "gravity_waves", 40, 20);
  const auto waves = [&](const std::string& arguments) { return simapp(arguments, 1, "waves.yaml"); };
  const Outcome stronger = waves(steps(6) + " --set perturbation.amplitude=0.02");
  ASSERT_EQ(stronger.exit_code, 0) << stronger.err;
  const std::string incompatible = R"(out/checkpoint_000006\.h5: checkpoint of an incompatible configuration: )";
  expect_refused(waves(steps(9) + " --restart latest --set perturbation.amplitude=0.03"),
                 incompatible + R"(perturbation\.amplitude 0\.02 vs 0\.03 \(checkpoint vs configuration\))");
  expect_refused(waves(steps(9) + " --restart latest"),
                 incompatible + R"(perturbation\.amplitude 0\.02 vs 0\.01 \(checkpoint vs configuration\))");
  expect_refused(waves(steps(9) + " --restart latest --set perturbation.amplitude=0.02 --set "
                                  "perturbation.center=[3000,1000] --set perturbation.radii=[500,600]"),
                 incompatible + R"(perturbation\.center \[2500, 1000\] vs \[3000, 1000\]; )"
                                R"(perturbation\.radii \[500, 500\] vs \[500, 600\] \(checkpoint vs configuration\))");
  const Outcome same = waves(steps(9) + " --restart latest --set perturbation.amplitude=0.02");
  EXPECT_EQ(same.exit_code, 0) << same.err;

  // The case's own bump, given or left out, is the same run.
  fs::remove_all(out());
  ASSERT_EQ(waves(steps(6)).exit_code, 0);
  const Outcome own = waves(steps(9) + " --restart latest --set perturbation.amplitude=0.01");
  EXPECT_EQ(own.exit_code, 0) << own.err;
}

TEST_F(CheckpointCliTest, ValidateWithRestartReadsAndVerifiesTheCheckpoint) {
  checkpointed_run();
  for (const int ranks : {1, 2}) {
    const Outcome valid = simapp(steps(9) + " --validate --restart latest", ranks);
    EXPECT_EQ(valid.exit_code, 0) << valid.err;
    // The first line, which scripts match; what the run would be follows it, indented.
    EXPECT_EQ(valid.out.substr(0, valid.out.find('\n') + 1),
              "case.yaml: configuration is valid; a restart continues from out/checkpoint_000006.h5 at step 6 of 9\n");
  }
  const Outcome finished = simapp(steps(6) + " --validate --restart latest");
  EXPECT_EQ(finished.out.substr(0, finished.out.find('\n') + 1),
            "case.yaml: configuration is valid; out/checkpoint_000006.h5 is the run's last step (6): a "
            "restart has nothing to do\n")
      << finished.err;
  testing::flip_state_bit(checkpoint());
  expect_refused(simapp(steps(9) + " --validate --restart latest"),
                 R"(out/checkpoint_000006\.h5: /state fails its checksum \(corrupted\))");
  // On two ranks too, each reading its own block (mpirun adds its own lines).
  const Outcome parallel = simapp(steps(9) + " --validate --restart latest", 2);
  EXPECT_EQ(parallel.exit_code, 2) << parallel.err;
  EXPECT_TRUE(std::regex_search(parallel.err, std::regex(R"(^simapp: error: out/checkpoint_000006\.h5: /state fails )"
                                                         R"(its checksum \(corrupted\)\n)")))
      << parallel.err;
}

TEST_F(CheckpointCliTest, CheckpointOfTheOlderFormatIsRefused) {
  testing::rewrite_in_older_format(checkpointed_run());
  expect_refused(restart(),
                 R"(out/checkpoint_000006\.h5: written by an older simapp without checksums; cannot be verified)");
}

// 5. Hostile files.

TEST_F(CheckpointCliTest, NameWithAStepBeyondRangeIsNotACheckpoint) {
  checkpointed_run();
  std::ofstream(out() / "checkpoint_99999999999999999999.h5") << "not a checkpoint\n";
  const Outcome outcome = restart();
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(restarting from out/checkpoint_000006\.h5)")))
      << outcome.out;
  EXPECT_TRUE(fs::exists(out() / "checkpoint_99999999999999999999.h5"));
}

TEST_F(CheckpointCliTest, NamedPipeIsNotTheLatestCheckpoint) {
  checkpointed_run();
  testing::make_fifo(out() / "checkpoint_999999.h5");
  const Outcome outcome = restart();
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(restarting from out/checkpoint_000006\.h5)")))
      << outcome.out;
  EXPECT_EQ(fs::symlink_status(out() / "checkpoint_999999.h5").type(), fs::file_type::fifo);
}

TEST_F(CheckpointCliTest, NamedPipeGivenToRestartIsRefusedWithoutOpeningIt) {
  checkpointed_run();
  testing::make_fifo(out() / "checkpoint_000007.h5");
  expect_refused(restart("out/checkpoint_000007.h5"),
                 R"(out/checkpoint_000007\.h5: not a regular file \(a named pipe\).*)");
}

TEST_F(CheckpointCliTest, NewCheckpointRemovesOnlyEarlierSimappCheckpoints) {
  checkpointed_run();
  std::ofstream(out() / "checkpoint_000001.h5") << "a user's notes\n";
  testing::write_plain_hdf5(out() / "checkpoint_000002.h5");
  fs::create_directories(directory_ / "kept");
  fs::copy_file(checkpoint(), directory_ / "kept" / "checkpoint_000006.h5");
  fs::create_symlink(directory_ / "kept" / "checkpoint_000006.h5", out() / "checkpoint_000003.h5");
  testing::make_fifo(out() / "checkpoint_000004.h5");
  const Outcome outcome = restart();
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(fs::exists(out() / "checkpoint_000009.h5"));
  EXPECT_FALSE(fs::exists(checkpoint())) << "simapp's own earlier checkpoint goes";
  EXPECT_EQ(testing::read_text(out() / "checkpoint_000001.h5"), "a user's notes\n");
  EXPECT_TRUE(fs::is_regular_file(out() / "checkpoint_000002.h5"));
  EXPECT_TRUE(fs::is_symlink(out() / "checkpoint_000003.h5"));
  EXPECT_TRUE(fs::is_regular_file(directory_ / "kept" / "checkpoint_000006.h5"));
  EXPECT_EQ(fs::symlink_status(out() / "checkpoint_000004.h5").type(), fs::file_type::fifo);
}
}  // namespace
}  // namespace simapp
