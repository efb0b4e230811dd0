/// Water (physics.microphysics: kessler) through the real binary: a moist run reports the dry
/// air's d_mass, d_water and the clipped water (progress lines, closing lines, stats.nc, run.json)
/// and no d_mass_<tracer> of the water's tracers; a restart continues the state and the surface
/// fields (precipitation_amount, the rain rate, the clipped water) bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "tests/support/binary_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class WaterCliTest : public testing::BinaryTest {
 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    // 40 x 20 cells: dt = 5/3 s.
    std::ofstream(directory_ / "case.yaml") << "case: moist_thermal\ngrid:\n  nx: 40\n  nz: 20\noutput:\n  dir: out\n"
                                               "physics:\n  microphysics: kessler\n";
  }

 public:
  /// Runs simapp on one rank, stopped after two minutes.
  Outcome simapp(const std::string& arguments) const {
    return run(std::string("OMP_NUM_THREADS=1 timeout 120 ") + SIMAPP_BINARY + " case.yaml --backend host " +
               arguments);
  }

  fs::path out() const { return directory_ / "out"; }
};

/// The numbers the groups of `pattern` capture where it first matches `text` (none: no match).
std::vector<double> captured(const std::string& text, const std::string& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(pattern))) return {};
  std::vector<double> values;
  for (std::size_t group = 1; group < match.size(); ++group) values.push_back(std::stod(match[group]));
  return values;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// What a printed value of `digits` significant digits allows.
double printed_tolerance(double printed, double digits) { return std::pow(10.0, 1.0 - digits) * std::abs(printed); }

TEST_F(WaterCliTest, AMoistRunReportsTheDryMassTheWaterAndTheClippedWaterEverywhereDMassIs) {
  // 120 steps: progress lines at 60, statistics at 0, 60 and 120, snapshots at 0 and 120.
  const Outcome outcome = simapp(
      "--set time.sim_time=200 --set output.progress_every=60 --set output.stats_every=100 --set output.every=200");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out << outcome.err;
  EXPECT_EQ(outcome.out.find("d_mass_q"), std::string::npos) << outcome.out;
  const std::vector<double> progress = captured(
      outcome.out, R"(\nstep +60/120 .* d_mass = (\S+)  d_te = \S+  d_water = (\S+)  clipped = (\S+) kg  wall )");
  const std::vector<double> closing =
      captured(outcome.out, R"(\nd_mass: (\S+)\nd_te: \S+\nd_water: (\S+)\nclipped_water: (\S+) kg\ntiming: )");
  ASSERT_EQ(progress.size(), 3u) << outcome.out;
  ASSERT_EQ(closing.size(), 3u) << outcome.out;
  const std::vector<io::StatisticsRow> rows =
      io::read_statistics_file(out() / "stats.nc", ExitCode::io, {}, Microphysics::kessler);
  ASSERT_EQ(rows.size(), 3u);
  const io::StatisticsRow &first = rows.front(), &last = rows.back();
  ASSERT_TRUE(first.statistics.totals.water && last.change.water);
  // The dry air's mass is conserved; the water changes by what was clipped, which is not nothing.
  for (const double d_mass : {progress[0], closing[0], last.change.mass}) EXPECT_LT(std::abs(d_mass), 1e-13);
  const double w0 = first.statistics.totals.water->water;
  EXPECT_GT(w0, 0.0);
  EXPECT_EQ(first.change.water->water, 0.0) << "t = 0 is the reference";
  EXPECT_EQ(first.change.water->clipped, 0.0);
  EXPECT_GT(last.change.water->clipped, 0.0);
  EXPECT_NEAR(last.change.water->water, last.change.water->clipped / w0, 1e-12);
  EXPECT_NEAR(last.statistics.totals.water->water, w0 + last.change.water->clipped, 1e-12 * w0);
  // The closing lines and the record say what stats.nc says at the end.
  EXPECT_NEAR(closing[1], last.change.water->water, printed_tolerance(closing[1], 7));
  EXPECT_NEAR(closing[2], last.change.water->clipped, printed_tolerance(closing[2], 7));
  const nlohmann::json record = nlohmann::json::parse(std::ifstream(out() / "run.json"));
  EXPECT_EQ(record.at("d_water").get<double>(), last.change.water->water);
  EXPECT_EQ(record.at("clipped_water_kg").get<double>(), last.change.water->clipped);
  EXPECT_NEAR(record.at("last_progress").at("d_water").get<double>(), progress[1], printed_tolerance(progress[1], 4));
  EXPECT_NEAR(record.at("last_progress").at("clipped_water_kg").get<double>(), progress[2],
              printed_tolerance(progress[2], 4));
  // The rain on the ground and at the ground, as the last snapshot's fields have it (dA = 500 m²
  // a metre of y).
  const std::vector<double> amount = io::read_dataset(out() / "fields_000120.nc", "precipitation_amount");
  const std::vector<double> rain = io::read_dataset(out() / "fields_000120.nc", "rain_rate");
  long double on_the_ground = 0.0L, rain_sum = 0.0L;
  for (const double value : amount) on_the_ground += value * 500.0;
  for (const double value : rain) rain_sum += value;
  const WaterTotals& water = *last.statistics.totals.water;
  EXPECT_GT(water.precipitation, 0.0);
  // The sums are exact in fixed point: 2^-50 kg m⁻² a column's precipitation, 2^-60 m s⁻¹ its rate.
  EXPECT_NEAR(water.precipitation, static_cast<double>(on_the_ground), 40 * 500.0 * std::ldexp(1.0, -50));
  EXPECT_NEAR(water.mean_rain_rate, static_cast<double>(rain_sum / rain.size()), 1000.0 * std::ldexp(1.0, -60));
  EXPECT_EQ(water.max_rain_rate, *std::ranges::max_element(rain));
  for (const char* tracer : {"qv", "qc", "qr"}) {
    EXPECT_FALSE(record.contains(std::string("d_mass_") + tracer)) << tracer;
    EXPECT_FALSE(record.at("last_progress").contains(std::string("d_mass_") + tracer)) << tracer;
  }
}

/// The values of every variable of snapshot `path` (float64 datasets: coordinates, fields,
/// profiles), by name.
std::map<std::string, std::vector<double>> snapshot_values(const fs::path& path) {
  std::map<std::string, std::vector<double>> values;
  for (const char* name :
       {"rho_prime", "u", "w", "theta_prime", "p_prime", "qv", "qc", "qr", "T", "rain_rate", "precipitation_amount"})
    values[name] = io::read_dataset(path, name);
  return values;
}

/// 180 steps straight, or 90, a checkpoint, and 90 more, with `options` besides: the same
/// snapshot and records at step 180, bit for bit; rain has reached the ground by step 90.
void expect_restart_bit_for_bit(const WaterCliTest& test, const fs::path& directory, const std::string& options) {
  const std::string outputs =
      " --set output.every=150 --set output.checkpoint_every=150 --set output.variables=all" + options;
  const Outcome straight = test.simapp("--set time.sim_time=300 --set output.dir=straight" + outputs);
  ASSERT_EQ(straight.exit_code, 0) << straight.out << straight.err;
  const Outcome first = test.simapp("--set time.sim_time=150 --set output.dir=restarted" + outputs);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const Outcome rest = test.simapp("--set time.sim_time=300 --set output.dir=restarted --restart latest" + outputs);
  ASSERT_EQ(rest.exit_code, 0) << rest.out << rest.err;
  ASSERT_NE(rest.out.find("restarting from"), std::string::npos) << rest.out;
  const std::vector<double> halfway =
      io::read_dataset(directory / "straight" / "fields_000090.nc", "precipitation_amount");
  ASSERT_GT(*std::ranges::max_element(halfway), 0.0) << "rain on the ground at the restart";
  const auto expected = snapshot_values(directory / "straight" / "fields_000180.nc");
  const auto restarted = snapshot_values(directory / "restarted" / "fields_000180.nc");
  for (const auto& [name, values] : expected)
    EXPECT_TRUE(bitwise_equal(restarted.at(name), values)) << name << " differs after the restart";
  const nlohmann::json straight_record = nlohmann::json::parse(std::ifstream(directory / "straight" / "run.json"));
  const nlohmann::json restarted_record = nlohmann::json::parse(std::ifstream(directory / "restarted" / "run.json"));
  for (const char* key : {"d_mass", "d_water", "clipped_water_kg"})
    EXPECT_EQ(restarted_record.at(key), straight_record.at(key)) << key;
}

TEST_F(WaterCliTest, ARestartContinuesTheStateAndTheSurfaceFieldsBitForBit) {
  expect_restart_bit_for_bit(*this, directory_, "");
}

/// θ's vertical diffusion from the initial state: the restart keeps the run's t = 0 state as the
/// reference, not the state it restarts from.
TEST_F(WaterCliTest, ARestartWithTheInitialStateAsDiffusionReferenceContinuesBitForBit) {
  expect_restart_bit_for_bit(*this, directory_,
                             " --set physics.viscosity=200 --set physics.diffusivity=600"
                             " --set physics.diffusion_reference=initial_state");
}

/// The snapshot's water and temperature include the background's water: moist_bubble's column is
/// saturated with q_t = q_v + q_c = 20 g/kg at every height (Bryan & Fritsch), so in the column
/// at x = 0, 8 km from the bubble, q_v + q_c is 0.02 and q_v is Kessler's saturation mixing
/// ratio 380/p exp(17.27 (T − 273)/(T − 36)) at the snapshot's own T and p = p_bar + p_prime, to
/// 2 % (a cell's mean of the convex q_vs(T) lies 0.1–0.8 % above q_vs of its mean T with 500 m
/// cells; T without the background's vapour would be ≈ 3 K off near the ground, q_vs ≈ 20 %).
TEST_F(WaterCliTest, ASnapshotsWaterAndTemperatureIncludeTheBackgroundsWater) {
  std::ofstream(directory_ / "case.yaml")
      << "case: moist_bubble\ngrid:\n  nx: 40\n  nz: 20\n  xlen: 20000.0\n  zlen: 10000.0\n"
         "physics:\n  microphysics: kessler\n  rain: off\noutput:\n  dir: out\n"
         "  every: 2.0\n  variables: [p_prime, p_bar]\n";
  const Outcome outcome = simapp("--set time.sim_time=2");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out << outcome.err;
  const fs::path snapshot = out() / "fields_000000.nc";
  const std::vector<double> qv = io::read_dataset(snapshot, "qv"), qc = io::read_dataset(snapshot, "qc");
  const std::vector<double> temperature = io::read_dataset(snapshot, "T");
  const std::vector<double> p_prime = io::read_dataset(snapshot, "p_prime"),
                            p_bar = io::read_dataset(snapshot, "p_bar");
  const int nx = 40, nz = 20;
  ASSERT_EQ(qv.size(), static_cast<std::size_t>(nx * nz));
  for (int k = 0; k < nz; ++k) {
    const std::size_t cell = static_cast<std::size_t>(k * nx);  // i = 0
    EXPECT_NEAR(qv[cell] + qc[cell], 0.02, 1e-12) << "q_t at level " << k;
    const double p = p_bar[static_cast<std::size_t>(k)] + p_prime[cell], t = temperature[cell];
    const double saturated = 380.0 / p * std::exp(17.27 * (t - 273.0) / (t - 36.0));
    EXPECT_NEAR(qv[cell], saturated, 2e-2 * saturated) << "q_v at level " << k << ", T " << t << " K, p " << p;
  }
}

TEST_F(WaterCliTest, ADryRunReportsNoWater) {
  std::ofstream(directory_ / "case.yaml") << "case: thermal\ngrid:\n  nx: 40\n  nz: 20\noutput:\n  dir: out\n";
  const Outcome outcome = simapp("--set time.sim_time=10 --set output.stats_every=5");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.out << outcome.err;
  EXPECT_EQ(outcome.out.find("water"), std::string::npos) << outcome.out;
  const nlohmann::json record = nlohmann::json::parse(std::ifstream(out() / "run.json"));
  EXPECT_FALSE(record.contains("d_water"));
  EXPECT_FALSE(record.contains("clipped_water_kg"));
}

}  // namespace
}  // namespace simapp
