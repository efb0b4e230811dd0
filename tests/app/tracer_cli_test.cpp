/// Passive tracers (physics.tracers) through the real binary: snapshots hold their mixing
/// ratios, checkpoints their densities by name; a run continues from a checkpoint bit for bit on
/// any rank count and a restart with other tracers is refused by name; every decomposition gives
/// the same tracers; bad tracer names are refused with one line, and the persistent mode only
/// for the host backend. Each
/// tracer's relative mass change is reported as d_mass is (progress lines, closing lines,
/// stats.nc, run.json): round-off where the tracer is conserved, the snapshots' change where it
/// is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/launch_environment.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class TracerCliTest : public testing::BinaryTest {
 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    // 40 x 20 cells: dt = 5/3 s.
    std::ofstream(directory_ / "case.yaml") << "case: thermal\ngrid:\n  nx: 40\n  nz: 20\noutput:\n  dir: out\n"
                                               "physics:\n  tracers: [smoke, dye]\n";
  }

  /// Runs simapp on `ranks` MPI ranks (1: without mpiexec), stopped after a minute.
  Outcome simapp(const std::string& arguments, int ranks = 1) const {
    const std::string launcher =
        ranks == 1
            ? "OMP_NUM_THREADS=1 timeout 60 "
            : "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
              "OMPI_MCA_rmaps_base_oversubscribe=1 " +
                  testing::launch_environment + "timeout 60 " + std::string(SIMAPP_MPIEXEC) + " -n " +
                  std::to_string(ranks) + " ";
    return run(launcher + SIMAPP_BINARY + " case.yaml --backend host " + arguments);
  }

  /// The options of a run of `count` steps with a checkpoint every 3.
  static std::string steps(int count) {
    return "--set time.sim_time=" + std::to_string(count * 5 / 3) + " --set output.checkpoint_every=5";
  }

  fs::path out() const { return directory_ / "out"; }

  /// The state of the checkpoint at step 9 of the whole 2-D grid (3-D: 8 cells in y).
  std::vector<double> state_at_step_9(int ny = 1) const {
    return io::read_checkpoint_block(out() / "checkpoint_000009.h5", RankBox{40, 20, 0, 0, ny, 0});
  }
};

/// Exit code 2 and one line `simapp: error: <where>: <what>` where `pattern` matches.
void expect_refused(const Outcome& outcome, const std::string& pattern) {
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out << outcome.err;
  EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.err, std::regex("^simapp: error: " + pattern + "\n$"))) << outcome.err;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// The numbers the groups of `pattern` capture where it first matches `text` (none: no match).
std::vector<double> captured(const std::string& text, const std::string& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(pattern))) return {};
  std::vector<double> values;
  for (std::size_t group = 1; group < match.size(); ++group) values.push_back(std::stod(match[group]));
  return values;
}

/// The relative change of tracer `name`'s mass from the 2-D snapshot `before` to `after`, from
/// their fields: Σ q ρ over the cells, ρ = rho_bar(z) + rho_prime (the cells' volume cancels).
double snapshot_mass_change(const fs::path& before, const fs::path& after, const std::string& name) {
  const auto mass = [&](const fs::path& snapshot) {
    const std::vector<double> q = io::read_dataset(snapshot, name);
    const std::vector<double> rho_prime = io::read_dataset(snapshot, "rho_prime");
    const std::vector<double> rho_bar = io::read_dataset(snapshot, "rho_bar");
    const std::size_t nx = q.size() / rho_bar.size();
    long double sum = 0.0;
    for (std::size_t n = 0; n < q.size(); ++n) sum += q[n] * (rho_bar[n / nx] + rho_prime[n]);
    return sum;
  };
  const long double start = mass(before);
  return static_cast<double>((mass(after) - start) / start);
}

nlohmann::json run_record(const fs::path& directory) {
  return nlohmann::json::parse(std::ifstream(directory / "run.json"));
}

/// What a printed %e value of `printed` allows: its 7 significant digits.
double printed_tolerance(double printed) { return 1e-6 * std::abs(printed) + 1e-300; }

TEST_F(TracerCliTest, SnapshotsHoldMixingRatiosAndCheckpointsTheDensitiesByName) {
  const Outcome outcome = simapp("--set time.sim_time=5 --set output.every=5 --set output.checkpoint_every=5");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const fs::path snapshot = out() / "fields_000003.nc";
  for (const char* name : {"smoke", "dye"}) {
    const std::vector<double> q = io::read_dataset(snapshot, name);
    ASSERT_EQ(q.size(), 40u * 20u) << name;
    EXPECT_GT(*std::ranges::max_element(q), 0.9) << name << ": 1 inside the bump";
    EXPECT_LT(*std::ranges::max_element(q), 1.1) << name;
    EXPECT_LT(std::ranges::count_if(q, [](double v) { return v > 0.5; }), 40 * 20 / 4) << name << ": 0 outside";
  }
  const io::Hdf5Reader checkpoint(out() / "checkpoint_000003.h5", ExitCode::io);
  EXPECT_EQ(checkpoint.read_attribute<std::string>("variables"), "dens umom wmom rhot rhosmoke rhodye");
  EXPECT_EQ(checkpoint.read_attribute<std::string>("tracer_init"), "bump");
}

/// The closing lines of each tracer's mass change in `out`.
std::string tracer_mass_lines(const std::string& out) {
  std::smatch match;
  return std::regex_search(out, match, std::regex(R"(\nd_mass_smoke: \S+\nd_mass_dye: \S+\n)")) ? match.str() : "";
}

TEST_F(TracerCliTest, ARunContinuesBitForBitAndOtherTracersAreRefusedByName) {
  const Outcome first = simapp(steps(9));
  ASSERT_EQ(first.exit_code, 0);
  const std::vector<double> uninterrupted = state_at_step_9();
  EXPECT_EQ(uninterrupted.size(), 6u * 40 * 20);
  fs::remove_all(out());
  ASSERT_EQ(simapp(steps(6)).exit_code, 0);
  expect_refused(simapp(steps(9) + " --restart latest --set physics.tracers=smoke"),
                 R"(out/checkpoint_000006\.h5: checkpoint of an incompatible configuration: physics\.tracers )"
                 R"(\[smoke, dye\] vs \[smoke\] \(checkpoint vs configuration\))");
  expect_refused(simapp(steps(9) + " --restart latest --set physics.tracer_init=uniform"),
                 R"(out/checkpoint_000006\.h5: checkpoint of an incompatible configuration: physics\.tracer_init )"
                 R"(bump vs uniform \(checkpoint vs configuration\))");
  const Outcome outcome = simapp(steps(9) + " --restart latest", 2);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(bitwise_equal(state_at_step_9(), uninterrupted));
  // The checkpoint keeps each tracer's mass at t = 0: the restart reports the same changes.
  EXPECT_NE(tracer_mass_lines(first.out), "") << first.out;
  EXPECT_EQ(tracer_mass_lines(outcome.out), tracer_mass_lines(first.out)) << outcome.out;
}

TEST_F(TracerCliTest, EveryDecompositionGivesTheSameTracers) {
  for (const std::string& model : {std::string(), std::string(" --set grid.ny=8 --set grid.ylen=4000")}) {
    const int ny = model.empty() ? 1 : 8;
    ASSERT_EQ(simapp(steps(9) + model).exit_code, 0);
    const std::vector<double> one_rank = state_at_step_9(ny);
    const std::vector<std::string> layouts = model.empty()
                                                 ? std::vector<std::string>{"[2, 2]", "[4, 1]", "[1, 4]"}
                                                 : std::vector<std::string>{"[2, 2, 1]", "[1, 2, 2]", "[2, 1, 2]"};
    for (const std::string& ranks : layouts) {
      fs::remove_all(out());
      const Outcome outcome = simapp(steps(9) + model + " --set 'parallel.ranks=" + ranks + "'", 4);
      ASSERT_EQ(outcome.exit_code, 0) << ranks << outcome.err;
      EXPECT_TRUE(bitwise_equal(state_at_step_9(ny), one_rank)) << "ranks " << ranks << model;
    }
    fs::remove_all(out());
  }
}

TEST_F(TracerCliTest, ConservedTracerMassesAreReportedAsRoundOffWhereverDMassIs) {
  // 6 steps: progress lines at 3, statistics and snapshots at 0, 3 and 6.
  const Outcome outcome = simapp(
      "--set time.sim_time=10 --set output.progress_every=3 --set output.every=5 --set output.stats_every=5 "
      "--set output.variables=rho_prime,rho_bar");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::vector<double> progress =
      captured(outcome.out, R"(\nstep +3/6 .* d_te = \S+  d_mass_smoke = (\S+)  d_mass_dye = (\S+)  wall )");
  const std::vector<double> closing =
      captured(outcome.out, R"(\nd_mass: \S+\nd_te: \S+\nd_mass_smoke: (\S+)\nd_mass_dye: (\S+)\ntiming: )");
  ASSERT_EQ(progress.size(), 2u) << outcome.out;
  ASSERT_EQ(closing.size(), 2u) << outcome.out;
  const std::vector<io::StatisticsRow> rows =
      io::read_statistics_file(out() / "stats.nc", ExitCode::io, {"smoke", "dye"});
  ASSERT_EQ(rows.size(), 3u);
  const nlohmann::json run = run_record(out());
  const std::vector<std::string> tracers{"smoke", "dye"};
  for (std::size_t t = 0; t < tracers.size(); ++t) {
    const std::string& name = tracers[t];
    EXPECT_LT(std::abs(progress[t]), 1e-12) << name;
    EXPECT_LT(std::abs(closing[t]), 1e-12) << name;
    EXPECT_EQ(rows.front().change.tracer_mass.at(t), 0.0) << name << ": t = 0 is the reference";
    for (const io::StatisticsRow& row : rows) EXPECT_LT(std::abs(row.change.tracer_mass.at(t)), 1e-12) << name;
    EXPECT_NEAR(rows.back().change.tracer_mass[t], closing[t], printed_tolerance(closing[t])) << name;
    EXPECT_NEAR(run.at("d_mass_" + name).get<double>(), closing[t], printed_tolerance(closing[t])) << name;
    EXPECT_NEAR(run.at("last_progress").at("d_mass_" + name).get<double>(), progress[t], printed_tolerance(progress[t]))
        << name;
    EXPECT_NEAR(snapshot_mass_change(out() / "fields_000000.nc", out() / "fields_000006.nc", name), closing[t], 1e-14)
        << name;
  }
}

TEST_F(TracerCliTest, AnInjectedUniformTracerGainsTheMassTheAirGains) {
  // A mixing ratio of 1 everywhere, also in the air the inflow brings: the tracer's mass is the
  // air's (ρ_x = ρ to round-off), so its relative change is d_mass, which the jet makes nonzero.
  const Outcome outcome = simapp(
      "--set case=injection --set physics.tracers=smoke --set physics.tracer_init=uniform --set time.sim_time=10 "
      "--set output.every=10 --set output.variables=rho_prime,rho_bar");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::vector<double> closing = captured(outcome.out, R"(\nd_mass: (\S+)\nd_te: \S+\nd_mass_smoke: (\S+)\n)");
  ASSERT_EQ(closing.size(), 2u) << outcome.out;
  const double air = closing[0], smoke = closing[1];
  EXPECT_GT(std::abs(air), 1e-6) << "the jet changes the mass";
  EXPECT_NEAR(smoke, air, printed_tolerance(air));
  EXPECT_NEAR(snapshot_mass_change(out() / "fields_000000.nc", out() / "fields_000006.nc", "smoke"), smoke,
              printed_tolerance(smoke));
}

TEST_F(TracerCliTest, TheSeriesHoldsTheMixingRatiosOutputVariablesMayName) {
  const std::string run = "--set time.sim_time=5 --set output.every=5 --set output.variables=u,smoke";
  ASSERT_EQ(simapp(run).exit_code, 0);
  const fs::path per_time = out() / "fields_000003.nc";
  EXPECT_TRUE(io::Hdf5Reader(per_time, ExitCode::io).has_dataset("dye")) << "written, also where not named";
  const std::vector<double> smoke = io::read_dataset(per_time, "smoke"), dye = io::read_dataset(per_time, "dye");
  fs::rename(out(), directory_ / "per_time");
  ASSERT_EQ(simapp(run + " --set output.layout=series").exit_code, 0);
  const fs::path series = out() / "fields.nc";
  const std::size_t cells = 40 * 20;
  for (const auto& [name, last] : {std::pair{"smoke", smoke}, std::pair{"dye", dye}}) {
    const std::vector<double> times = io::read_dataset(series, name);
    ASSERT_EQ(times.size(), 2 * cells) << name << ": t = 0 and 5 s";
    EXPECT_TRUE(bitwise_equal({times.begin() + cells, times.end()}, last)) << name << ": the per-time file's";
  }
  const std::string valid = R"(valid: rho_prime, u, v, w, theta_prime, p_prime, dens, umom, vmom, wmom, rhot, )"
                            R"(rho_bar, theta_bar, p_bar)";
  expect_refused(simapp("--set output.variables=u,smok"),
                 R"(--set output\.variables=u,smok: output\.variables: unknown name 'smok' \(did you mean )"
                 R"('smoke'\?; )" +
                     valid + R"(, smoke, dye, all\))");
  expect_refused(
      simapp("--set physics.tracers=dye --set output.variables=smoke"),
      R"(--set output\.variables=smoke: output\.variables: unknown name 'smoke' \()" + valid + R"(, dye, all\))");
}

TEST_F(TracerCliTest, BadTracersAreRefusedWithOneLine) {
  expect_refused(simapp("--set physics.tracers=2nd"),
                 R"(--set physics\.tracers=2nd: physics\.tracers: '2nd' is not a tracer name \(a letter, then )"
                 R"(letters, digits or _\))");
  expect_refused(simapp("--set physics.tracers=w"),
                 R"(--set physics\.tracers=w: physics\.tracers: tracer w would be written as w, already a snapshot )"
                 R"(field's name)");
  expect_refused(simapp("--set physics.tracers=t,rhot"),
                 R"(--set physics\.tracers=t,rhot: physics\.tracers: tracer t would be written as rhot, already a )"
                 R"(snapshot field's name)");
  expect_refused(simapp("--set physics.tracers=x,rhox"),
                 R"(--set physics\.tracers=x,rhox: physics\.tracers: tracer rhox would be written as rhox, already )"
                 R"(tracer x's density)");
  expect_refused(simapp("--set physics.tracers=a,a"), R"(--set physics\.tracers=a,a: physics\.tracers: 'a' is )"
                                                      R"(listed twice)");
}

TEST_F(TracerCliTest, PersistentTakesTracersAndWaterAndIsRefusedOnTheHostForItsBackendAlone) {
  // The persistent kernel transports tracers and runs the microphysics (tests/gpu: bit for bit
  // the other modes); the host backend has no cooperative kernel.
  for (const std::string water : {"", " --set physics.microphysics=kessler"})
    expect_refused(simapp("--set execution.mode=persistent" + water),
                   R"(execution\.mode: persistent needs the CUDA backend, but this run uses host)");
}

}  // namespace
}  // namespace simapp
