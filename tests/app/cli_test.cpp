/// The simapp binary's command line and configuration errors, tested through the real binary.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/support/binary_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class CliTest : public testing::BinaryTest {
 protected:
  fs::path write_config(const std::string& text) const {
    const fs::path path = directory_ / "case.yaml";
    std::ofstream(path) << text;
    return path;
  }

  /// Runs simapp with `arguments` from the test directory; a hang fails after 20 s.
  Outcome simapp(const std::string& arguments) const {
    return run("timeout 20 " + std::string(SIMAPP_BINARY) + " " + arguments);
  }

  /// Expects exit code 2, exactly one line on stderr matching `pattern`, and nothing written.
  void expect_input_error(const Outcome& outcome, const std::string& pattern) const {
    EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
    EXPECT_TRUE(std::regex_search(outcome.err, std::regex(pattern))) << "stderr: " << outcome.err;
    EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: [^\n]*\n"))) << "stderr: " << outcome.err;
    EXPECT_FALSE(fs::exists(directory_ / "output")) << "an error must write nothing";
  }
};

TEST_F(CliTest, UnknownKeyNamesKeyLineAndSuggestion) {
  write_config("case: thermal\ngrid:\n  nxx: 100\n");
  expect_input_error(simapp("case.yaml"), R"(case\.yaml:3: grid\.nxx: unknown key \(did you mean 'grid\.nx'\?\))");
}

TEST_F(CliTest, WrongTypeNamesKeyAndLine) {
  write_config("grid:\n  nx: abc\n");
  expect_input_error(simapp("case.yaml"), R"(case\.yaml:2: grid\.nx: .*integer)");
}

TEST_F(CliTest, OutOfRangeValueIsRejected) {
  write_config("grid:\n  nz: 2\n");
  expect_input_error(simapp("case.yaml"), R"(case\.yaml:2: grid\.nz: must be >= 4)");
}

TEST_F(CliTest, UnknownCaseSuggestsTheNearestOne) {
  write_config("case: thermo\n");
  expect_input_error(simapp("case.yaml"), R"(case\.yaml:1: case: .*'thermal')");
}

TEST_F(CliTest, DuplicateKeyIsAnError) {
  write_config("grid:\n  nx: 100\n  nx: 200\n");
  expect_input_error(simapp("case.yaml"), R"(case\.yaml:3: grid\.nx: duplicate key)");
}

TEST_F(CliTest, MissingFileIsAnInputError) { expect_input_error(simapp("no_such_file.yaml"), R"(no_such_file\.yaml)"); }

TEST_F(CliTest, BadOverrideNamesTheOverride) {
  write_config("case: thermal\n");
  expect_input_error(simapp("case.yaml --set grid.nx=abc"), R"(--set grid\.nx=abc: grid\.nx)");
  expect_input_error(simapp("case.yaml --set gird.nx=10"), R"(gird)");
}

TEST_F(CliTest, BadBackendAndMissingConfigAreCommandLineErrors) {
  write_config("case: thermal\n");
  expect_input_error(simapp("case.yaml --backend gpu"), R"(command line: .*backend)");
  expect_input_error(simapp(""), R"(command line: .*config)");
}

TEST_F(CliTest, ALaterBackendOrModeWins) {
  // A batch script passes its --backend before its user's options, which must replace it
  // (before, CLI11 refused the second one: "--backend: At Most 1 required but received 2").
  write_config("case: thermal\ngrid:\n  nx: 40\n  nz: 20\n");
  const Outcome host = simapp("case.yaml --backend cuda --backend host --validate");
  EXPECT_EQ(host.exit_code, 0) << host.err;
  EXPECT_NE(host.out.find("configuration is valid"), std::string::npos) << host.out;
  // That the host backend was taken shows on any machine in what it refuses.
  expect_input_error(simapp("case.yaml --backend cuda --backend host --mode eager_streams --validate"),
                     R"(execution\.mode: eager_streams needs the CUDA backend, but this run uses host)");
  const Outcome mode = simapp("case.yaml --backend host --mode eager_streams --mode eager --validate");
  EXPECT_EQ(mode.exit_code, 0) << mode.err;
  expect_input_error(simapp("case.yaml --backend host --mode eager --mode eager_streams --validate"),
                     R"(execution\.mode: eager_streams needs the CUDA backend)");
}

TEST_F(CliTest, ValidateChecksAndExitsWithoutRunning) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\n");
  const Outcome outcome = simapp("case.yaml --validate");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("valid"), std::string::npos);
  EXPECT_EQ(outcome.out.find("d_mass"), std::string::npos);
}

TEST_F(CliTest, CourantNumberSetsTheTimeStep) {
  // dx = 500 m: dt = cfl · 500 / 450 s; half the Courant number is twice the steps.
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 50\n");
  const Outcome standard = simapp("case.yaml --set output.dir=standard");
  const Outcome halved = simapp("case.yaml --set time.cfl=0.75 --set output.dir=halved");
  EXPECT_EQ(standard.exit_code, 0) << standard.err;
  EXPECT_EQ(halved.exit_code, 0) << halved.err;
  EXPECT_NE(standard.out.find("dt = 1.66667 s (cfl 1.5), 30 steps"), std::string::npos) << standard.out;
  EXPECT_NE(halved.out.find("dt = 0.833333 s (cfl 0.75), 60 steps"), std::string::npos) << halved.out;
}

TEST_F(CliTest, VersionAndHelpExitZero) {
  const Outcome version = simapp("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_TRUE(std::regex_search(version.out, std::regex(R"(^simapp \d+\.\d+\.\d+)")));
  const Outcome help = simapp("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--set"), std::string::npos);
}

TEST_F(CliTest, RunPrintsHeaderAndTheClassicClosingLines) {
  write_config("case: thermal\ngrid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 20\noutput:\n  progress_every: 10\n");
  const Outcome outcome = simapp("case.yaml --backend host --set time.sim_time=30");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("case      thermal"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("40 x 20 cells"), std::string::npos);
  EXPECT_NE(outcome.out.find("backend   host"), std::string::npos);
  EXPECT_NE(outcome.out.find("sim_time = 30 s"), std::string::npos) << "--set must override the file";
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\nstep +\d+/\d+ +t = .*d_mass = .*ETA)")));
  const std::regex closing(R"(\nd_mass: -?\d\.\d{6}e[+-]\d{2}\nd_te: -?\d\.\d{6}e[+-]\d{2}\ntiming: )");
  EXPECT_TRUE(std::regex_search(outcome.out, closing)) << outcome.out;
}

TEST_F(CliTest, WhatThe3DModelCannotRunIsRefusedByName) {
  write_config("case: thermal\ngrid:\n  nx: 40\n  ny: 8\n  nz: 20\n");
  expect_input_error(simapp("case.yaml --backend host --set execution.mode=persistent"),
                     R"(execution\.mode: persistent needs the CUDA backend, but this run uses host)");
  write_config("case: thermal\ngrid:\n  nx: 40\n  nz: 20\noutput:\n  every: 10\n");
  expect_input_error(simapp("case.yaml --backend host --set perturbation.center=5000,0,2000"),
                     R"(--set perturbation\.center=5000,0,2000: perturbation\.center = \[5000, 0, 2000\]: three )"
                     R"(numbers \[x, y, z\] are for the 3-D model)");
  expect_input_error(simapp("case.yaml --backend host --set case=rest --set perturbation.amplitude=2"),
                     R"(perturbation\.amplitude = 2: the rest case has no bump)");
}

TEST_F(CliTest, The3DModelPlansAndRunsWithItsYDirection) {
  write_config("case: thermal\ngrid:\n  nx: 16\n  ny: 8\n  nz: 8\n  ylen: 10000\ntime:\n  sim_time: 40\n");
  const Outcome plan = simapp("case.yaml --backend host --plan");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("plan: case thermal, 16 x 8 x 8 cells"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("passes: odd steps x then y then z; even steps z then y then x"), std::string::npos);
  EXPECT_NE(plan.out.find("y low periodic, y high periodic"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("kernels per step:      9\n"), std::string::npos) << plan.out;
  const Outcome run = simapp("case.yaml --backend host");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("grid      16 x 8 x 8 cells (x, y, z), dx = 1250 m, dy = 1250 m, dz = 1250 m"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("(x and y periodic, z walls)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("d_mass: 0.000000e+00"), std::string::npos) << run.out;
}

TEST_F(CliTest, TheKeysOfThe3DModelAtTheir2DValuesChangeNoOutput) {
  write_config("case: collision\ngrid:\n  nx: 40\n  nz: 20\n  xlen: 8000\n  zlen: 10000\ntime:\n  sim_time: 30\n");
  const std::string as_3d_keys = " --set grid.ny=1 --set grid.ylen=8000 --set parallel.ranks=0,1,0";
  const Outcome plain = simapp("case.yaml --backend host --plan");
  const Outcome given = simapp("case.yaml --backend host --plan" + as_3d_keys);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(given.out, plain.out);
  EXPECT_NE(plain.out.find("collision"), std::string::npos) << plain.out;
}

TEST_F(CliTest, PlanForAnUnavailableBackendIsAnInputError) {
  write_config("case: thermal\n");
  const Outcome outcome = simapp("case.yaml --plan --backend cuda");
  if (outcome.exit_code == 0) GTEST_SKIP() << "a GPU is visible";
  expect_input_error(outcome, R"(execution\.backend: cuda requested)");
}

TEST_F(CliTest, LaneStreamsOnTheHostAreAnInputError) {
  write_config("grid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 1\n");
  expect_input_error(
      simapp("case.yaml --backend host --mode eager_streams"),
      R"(^simapp: error: execution\.mode: eager_streams needs the CUDA backend, but this run uses host)");
  expect_input_error(simapp("case.yaml --backend host --mode eager_streams --validate"),
                     R"(execution\.mode: eager_streams needs the CUDA backend)");
}

TEST_F(CliTest, GraphLoopOnTheHostIsAnInputError) {
  write_config("grid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 1\n");
  expect_input_error(simapp("case.yaml --backend host --mode graph_loop"),
                     R"(^simapp: error: execution\.mode: graph_loop needs the CUDA backend, but this run uses host)");
}

TEST_F(CliTest, CudaBackendWithoutGpuIsAnInputError) {
  write_config("grid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 1\n");
  const Outcome outcome = simapp("case.yaml --backend cuda");
  if (outcome.exit_code == 0) GTEST_SKIP() << "a GPU is visible";
  expect_input_error(outcome, R"(execution\.backend: cuda requested)");
}

TEST_F(CliTest, NcclHalosOnTheHostBackendAreAnInputError) {
  write_config("grid:\n  nx: 40\n  nz: 20\nparallel:\n  halo: nccl\n");
  // Refused whichever way this build lacks: NCCL itself, or (with NCCL) a GPU backend.
  expect_input_error(
      simapp("case.yaml --backend host"),
      R"(^simapp: error: parallel\.halo: nccl (needs the CUDA backend|requested but this simapp was built without NCCL))");
}

TEST_F(CliTest, UnknownHaloTransportListsTheChoices) {
  write_config("parallel:\n  halo: shmem\n");
  expect_input_error(simapp("case.yaml --validate"), R"(case\.yaml:2: parallel\.halo: .*mpi.*nccl)");
}

TEST_F(CliTest, ValidateRejectsWhatARunWouldReject) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\n");
  expect_input_error(simapp("case.yaml --validate --set output.variables=bogus"),
                     R"(^simapp: error: --set output\.variables=bogus: output\.variables: unknown name 'bogus')");
  expect_input_error(simapp("case.yaml --validate --set output.variables=u,u"),
                     R"(output\.variables: 'u' is listed twice)");
  expect_input_error(simapp("case.yaml --validate --set output.compression=10"),
                     R"(output\.compression: must be <= 9, got 10)");
  expect_input_error(simapp("case.yaml --validate --set time.sim_time=1e20"),
                     R"(time\.sim_time: 1e\+20 s at dt = 1\.66667 s is 6e\+19 steps; at most 2147483647 steps)");
  expect_input_error(simapp("case.yaml --validate --set grid.xlen=1e-15"), R"(grid\.xlen: 1e-15 m gives dt = )");
  expect_input_error(simapp("case.yaml --validate --set output.every=1e-9"),
                     R"(output\.every: 1e-09 s is shorter than the time step dt = 1\.66667 s)");
  expect_input_error(simapp("case.yaml --validate --set output.checkpoint_every=1e-9"),
                     R"(output\.checkpoint_every: 1e-09 s is shorter than the time step)");
}

TEST_F(CliTest, ARunNeverStartsWithMoreStepsThanAllowed) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\n");
  expect_input_error(simapp("case.yaml --backend host --set time.sim_time=1e20"),
                     R"(^simapp: error: --set time\.sim_time=1e20: time\.sim_time: .* steps are allowed\n)");
}

TEST_F(CliTest, OutputIntervalLongerThanTheRunWritesTheStartAndTheEnd) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\ntime:\n  sim_time: 5\n");  // dt = 1.66667 s: 3 steps
  const Outcome outcome = run("OMP_NUM_THREADS=1 timeout 20 " SIMAPP_BINARY
                              " case.yaml --backend host --set output.dir=out --set output.every=1e20 "
                              "--set output.checkpoint_every=1e20");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(fs::exists(directory_ / "out" / "fields_000000.nc"));
  EXPECT_TRUE(fs::exists(directory_ / "out" / "fields_000003.nc"));
  EXPECT_TRUE(fs::exists(directory_ / "out" / "checkpoint_000003.h5"));
}

/// Output schedules are worked out as they are asked, never listed: --validate of 1.8e9 steps
/// of 1.67 s with a snapshot and a checkpoint every 1.67 s answers at once, in bounded memory.
TEST_F(CliTest, ValidateOfBillionsOfOutputsAnswersAtOnce) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\n");  // dt = 5/3 s
  const auto start = std::chrono::steady_clock::now();
  const Outcome outcome =
      run(memory_bound() + "timeout 60 " SIMAPP_BINARY
                           " case.yaml --backend host --validate --set output.dir=out --set time.sim_time=3e9 "
                           "--set output.every=1.67 --set output.checkpoint_every=1.67");
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  // t = 0, each multiple of 1.67 s whose first step reaching it comes before the last
  // (1796407184 · 1.67 s is reached at step 1799999999), and the last step.
  EXPECT_NE(outcome.out.find(" 1796407186 snapshots of 4 fields"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(" 1796407185 checkpoints"), std::string::npos) << outcome.out;
  EXPECT_LT(took.count(), 10.0) << "answered in well under a second on an idle machine";
  EXPECT_FALSE(fs::exists(directory_ / "out")) << "--validate creates nothing";
}

TEST_F(CliTest, DevicesAreRefusedWithoutReadingThem) {
  // Bounded memory too, so that a regression fails instead of exhausting the machine.
  for (const std::string device : {"/dev/urandom", "/dev/zero"})
    expect_input_error(run(memory_bound() + "timeout 20 " SIMAPP_BINARY " " + device + " --validate"),
                       "^simapp: error: " + device + ": is a device, not a configuration file\n");
  expect_input_error(simapp(". --validate"), R"(^simapp: error: \.: is a directory, not a configuration file)");
}

TEST_F(CliTest, PipesAreReadButBoundedToOneMebibyte) {
  write_config("case: rest\ngrid:\n  nx: 40\n  nz: 20\n");
  const Outcome piped = run("timeout 20 bash -c 'exec " SIMAPP_BINARY " <(cat case.yaml) --validate'");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_NE(piped.out.find("configuration is valid"), std::string::npos) << piped.out;
  expect_input_error(run(memory_bound() + "timeout 20 bash -c 'exec " SIMAPP_BINARY
                                          " <(cat case.yaml; yes \"# comment\") --validate'"),
                     R"(^simapp: error: /dev/fd/\d+: configuration file is larger than 1 MiB\n)");
}

TEST_F(CliTest, UnopenablePathsAreOneLineInputErrors) {
  fs::create_symlink(directory_ / "b.yaml", directory_ / "a.yaml");
  fs::create_symlink(directory_ / "a.yaml", directory_ / "b.yaml");
  expect_input_error(simapp("a.yaml --validate"), R"(a\.yaml: cannot read configuration file \(Too many levels)");
  const std::string long_name(300, 'n');
  expect_input_error(simapp(long_name + ".yaml --validate"),
                     R"(cannot read configuration file \(File name too long\))");
}

TEST_F(CliTest, StrayCommaIsAOneLineInputError) {
  write_config(",case: rest\n");
  // Bounded memory: yaml-cpp 0.7's LoadAll allocates without end on this input.
  expect_input_error(run(memory_bound() + "timeout 20 " SIMAPP_BINARY " case.yaml --validate"),
                     R"(^simapp: error: case\.yaml:1: invalid YAML: unexpected ','\n)");
}

TEST_F(CliTest, BinaryGarbageIsAnInputError) {
  std::string garbage(4096, '\0');
  unsigned state = 1;
  for (char& c : garbage) {
    state = state * 1103515245u + 12345u;
    c = static_cast<char>(state >> 16);
  }
  std::ofstream(directory_ / "garbage.yaml", std::ios::binary) << garbage;
  const Outcome outcome = run(memory_bound() + "timeout 20 " SIMAPP_BINARY " garbage.yaml --validate");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_TRUE(outcome.err.starts_with("simapp: error: garbage.yaml")) << outcome.err;
}

}  // namespace
}  // namespace simapp
