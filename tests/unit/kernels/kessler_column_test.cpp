/// Checks the warm-rain (Kessler) microphysics of one column (kernels/physics/kessler.hpp) against
/// the model's description (docs/model.md, "Moisture", steps 2 and 3): the column routine, with rain in one and in
/// several sub-steps and without rain, against a plain scalar transcription of the specification laid out like the
/// DCMIP2016 `kessler` routine (all fall speeds, then all sedimentation terms, then a loop over the levels); and,
/// independently of the transcription, the water budget (column water = water after + rain at the ground − clipped
/// mass, no loss through the lid), the latent heating of condensation, a dry column that stays bit for bit, and the
/// hole filling of a tracer column. The columns are hand-made: ρ_d 1.2 → 0.4 kg m⁻³, Π 1 → 0.7, θ_d 300 → 335 K over
/// 8–10 km.
#include "kernels/physics/kessler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/recorded_value.hpp"

namespace simapp {
namespace {

using physics::cp;
using physics::lv;
using physics::p0;
using physics::rd;
using physics::rho_water;

/// A column of nz levels dz apart, level 0 the lowest, in plain vectors; as the routine's column
/// (kessler_column) it loads and stores the vectors' values on every sweep.
struct Column {
  std::vector<double> theta, qv, qc, qr, rho_d, exner;
  double dz = 0.0;

  int nz() const { return static_cast<int>(theta.size()); }
};

struct VectorLevels {
  Column& c;

  KesslerLevel load(int k, bool) const { return {c.theta[k], c.qv[k], c.qc[k], c.qr[k], c.rho_d[k], c.exner[k]}; }
  void store(int k, bool, const KesslerLevel& level) const {
    c.theta[k] = level.theta;
    c.qv[k] = level.qv;
    c.qc[k] = level.qc;
    c.qr[k] = level.qr;
  }
};

KesslerOutcome kessler_column(Column& c, double dt, bool rain) {
  return simapp::kessler_column(VectorLevels{c}, c.nz(), c.dz, dt, rain);
}

/// What the transcription gives besides the column.
struct Reference {
  double rain_rate = 0.0;
  double clipped = 0.0;
  int substeps = 1;
};

/// A dry, stable column: cell centres z = (k + ½) dz, ρ_d = 1.2 e^(−z/8500), Π = 1 − 3.2e-5 z, θ_d = 300 + 0.0035 z.
Column dry_column(int nz, double dz) {
  Column c;
  c.dz = dz;
  for (int k = 0; k < nz; ++k) {
    const double z = (k + 0.5) * dz;
    c.rho_d.push_back(1.2 * std::exp(-z / 8500.0));
    c.exner.push_back(1.0 - 3.2e-5 * z);
    c.theta.push_back(300.0 + 0.0035 * z);
  }
  c.qv = c.qc = c.qr = std::vector<double>(nz, 0.0);
  return c;
}

/// 380/p with p = p₀ Π^(c_p/R_d), Pa⁻¹.
double saturation_factor(double exner) { return 380.0 / (p0 * std::pow(exner, cp / rd)); }

/// q_vs = 380/p · exp(17.27 (T − 273)/(T − 36)), T = Π θ_d.
double saturation(double exner, double theta) {
  const double temperature = exner * theta;
  return saturation_factor(exner) * std::exp(17.27 * (temperature - 273.0) / (temperature - 36.0));
}

double saturation(const Column& c, int k) { return saturation(c.exner[k], c.theta[k]); }

/// nz = 24, dz = 400 m: relative humidity 0.85 below level 6, 1.02 in a cloud at levels 6–13 (q_c 0.4–1.8 g/kg,
/// across the autoconversion threshold), 0.6 above; rain rain_scale·(1 + ½ sin k) g/kg at levels 0–15 and at the top.
Column rainy_column(double rain_scale) {
  Column c = dry_column(24, 400.0);
  for (int k = 0; k < c.nz(); ++k) {
    const bool cloud = k >= 6 && k < 14;
    c.qv[k] = (k < 6 ? 0.85 : cloud ? 1.02 : 0.6) * saturation(c, k);
    c.qc[k] = cloud ? 0.4e-3 + 0.2e-3 * (k - 6) : 0.0;
    c.qr[k] = k < 16 || k == c.nz() - 1 ? rain_scale * 1e-3 * (1.0 + 0.5 * std::sin(k)) : 0.0;
  }
  return c;
}

/// Fall speed V_k = 36.34 (0.001 ρ_d,k max(q_r,k, 0))^0.1364 √(ρ_d,0/ρ_d,k) (KW 2.15).
double fall_speed(const Column& c, int k) {
  return 36.34 * std::pow(0.001 * c.rho_d[k] * std::max(c.qr[k], 0.0), 0.1364) * std::sqrt(c.rho_d[0] / c.rho_d[k]);
}

/// The specification's column routine transcribed as the DCMIP2016 `kessler` routine is laid out.
Reference transcription(Column& c, double dt, bool rain) {
  const int nz = c.nz();
  Reference out;
  const double c2 = 237.3 * 17.27 * lv / cp;
  auto clip = [&](double value, int k) {
    if (value < 0.0) out.clipped += c.rho_d[k] * -value * c.dz;
    return std::max(value, 0.0);
  };
  std::vector<double> r(nz), pc(nz), velqr(nz), sed(nz);
  for (int k = 0; k < nz; ++k) {
    r[k] = 0.001 * c.rho_d[k];
    pc[k] = saturation_factor(c.exner[k]);
    velqr[k] = fall_speed(c, k);
  }
  double dt_max = dt;
  for (int k = 0; k < nz - 1; ++k) {
    if (velqr[k] != 0.0) dt_max = std::min(dt_max, 0.8 * c.dz / velqr[k]);
  }
  if (rain) out.substeps = static_cast<int>(std::ceil(dt / dt_max));
  const double dt0 = dt / out.substeps;
  for (int nt = 0; nt < out.substeps; ++nt) {
    if (rain) {
      out.rain_rate += c.rho_d[0] * c.qr[0] * velqr[0] / rho_water;
      for (int k = 0; k < nz - 1; ++k) {
        sed[k] = dt0 * (r[k + 1] * c.qr[k + 1] * velqr[k + 1] - r[k] * c.qr[k] * velqr[k]) / (r[k] * c.dz);
      }
      sed[nz - 1] = -dt0 * c.qr[nz - 1] * velqr[nz - 1] / c.dz;
    }
    for (int k = 0; k < nz; ++k) {
      if (rain) {
        const double qrprod = c.qc[k] - (c.qc[k] - dt0 * std::max(0.001 * (c.qc[k] - 0.001), 0.0)) /
                                            (1.0 + dt0 * 2.2 * std::pow(std::max(c.qr[k], 0.0), 0.875));
        c.qc[k] = clip(c.qc[k] - qrprod, k);
        c.qr[k] = clip(c.qr[k] + qrprod + sed[k], k);
      }
      const double temperature = c.exner[k] * c.theta[k];
      const double qvs = pc[k] * std::exp(17.27 * (temperature - 273.0) / (temperature - 36.0));
      const double prod = (c.qv[k] - qvs) / (1.0 + qvs * c2 / ((temperature - 36.0) * (temperature - 36.0)));
      double ern = 0.0;
      if (rain) {
        const double rqr = r[k] * c.qr[k];
        ern = std::min({dt0 *
                            (((1.6 + 124.9 * std::pow(rqr, 0.2046)) * std::pow(rqr, 0.525)) /
                             (2550000.0 * pc[k] / (3.8 * qvs) + 540000.0)) *
                            (std::max(qvs - c.qv[k], 0.0) / (r[k] * qvs)),
                        std::max(-prod - c.qc[k], 0.0), c.qr[k]});
      }
      const double condensation = std::max(prod, -c.qc[k]);
      c.theta[k] = c.theta[k] + lv / (cp * c.exner[k]) * (condensation - ern);
      c.qv[k] = clip(c.qv[k] - condensation + ern, k);
      c.qc[k] = c.qc[k] + condensation;
      c.qr[k] = c.qr[k] - ern;
    }
    for (int k = 0; k < nz; ++k) velqr[k] = fall_speed(c, k);
  }
  out.rain_rate /= out.substeps;
  return out;
}

/// Σ_k ρ_d,k (q_v + q_c + q_r)_k dz, kg m⁻².
double column_water(const Column& c) {
  double water = 0.0;
  for (int k = 0; k < c.nz(); ++k) water += c.rho_d[k] * (c.qv[k] + c.qc[k] + c.qr[k]) * c.dz;
  return water;
}

/// |actual − expected| ≤ 1e-13 |expected| (or 1e-18 near 0); returns the largest relative difference.
double expect_agreement(const std::vector<double>& actual, const std::vector<double>& expected, const char* name) {
  double largest = 0.0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const double difference = std::abs(actual[k] - expected[k]);
    EXPECT_LE(difference, std::max(1e-13 * std::abs(expected[k]), 1e-18))
        << name << " at level " << k << ": " << actual[k] << " vs " << expected[k];
    if (expected[k] != 0.0) largest = std::max(largest, difference / std::abs(expected[k]));
  }
  return largest;
}

/// Runs the routine and the transcription on copies of `initial` and expects the same columns and outcome.
KesslerOutcome expect_routine_matches_transcription(const Column& initial, double dt, bool rain,
                                                    const std::string& label) {
  Column routine = initial, reference = initial;
  const KesslerOutcome outcome = kessler_column(routine, dt, rain);
  const Reference expected = transcription(reference, dt, rain);
  const double largest = std::max(
      {expect_agreement(routine.theta, reference.theta, "theta"), expect_agreement(routine.qv, reference.qv, "qv"),
       expect_agreement(routine.qc, reference.qc, "qc"), expect_agreement(routine.qr, reference.qr, "qr")});
  ::testing::Test::RecordProperty("largest_relative_difference_" + label, testing::scientific(largest));
  EXPECT_NEAR(outcome.rain_rate, expected.rain_rate, 1e-13 * std::abs(expected.rain_rate));
  // The routine sums the clipped water from the top down, the transcription from the bottom up.
  EXPECT_NEAR(outcome.clipped, expected.clipped, 1e-13 * std::abs(expected.clipped));
  EXPECT_EQ(outcome.substeps, expected.substeps);
  return outcome;
}

/// Expects water before = water after + ρ_w · rate · dt − clipped, to 1e-12 relative.
void expect_water_conserved(const Column& initial, double dt) {
  Column c = initial;
  const KesslerOutcome outcome = kessler_column(c, dt, true);
  const double before = column_water(initial);
  const double after = column_water(c) + rho_water * outcome.rain_rate * dt - outcome.clipped;
  ::testing::Test::RecordProperty("relative_water_change_dt_" + std::to_string(static_cast<int>(dt)),
                                  testing::scientific((after - before) / before));
  EXPECT_NEAR(after, before, 1e-12 * before) << "dt " << dt << ", " << outcome.substeps << " sub-steps";
}

TEST(KesslerColumnTest, OneSubStepOfRainMatchesTheTranscription) {
  const KesslerOutcome outcome = expect_routine_matches_transcription(rainy_column(1.0), 2.0, true, "dt_2");
  EXPECT_EQ(outcome.substeps, 1);
  EXPECT_GT(outcome.rain_rate, 0.0);
}

TEST(KesslerColumnTest, HeavyRainOverALongStepTakesSeveralSubStepsAndMatchesTheTranscription) {
  // q_r up to 7.5 g/kg falls at ≈ 7 m/s: over 600 s far more than 0.8 dz = 320 m.
  const KesslerOutcome outcome = expect_routine_matches_transcription(rainy_column(5.0), 600.0, true, "dt_600");
  EXPECT_GT(outcome.substeps, 1);
}

TEST(KesslerColumnTest, WithoutRainOnlyTheSaturationAdjustmentRuns) {
  for (const double humidity : {1.03, 0.9}) {
    SCOPED_TRACE(humidity);
    // nz = 16, dz = 500 m; cloud 0.1–0.85 g/kg at levels 2–11, rain 1 g/kg at levels 0–7, which must stay as it is.
    Column c = dry_column(16, 500.0);
    for (int k = 0; k < c.nz(); ++k) {
      c.qv[k] = humidity * saturation(c, k);
      c.qc[k] = k >= 2 && k < 12 ? 1e-4 * (k - 1) : 0.0;
      c.qr[k] = k < 8 ? 1e-3 : 0.0;
    }
    const KesslerOutcome outcome =
        expect_routine_matches_transcription(c, 300.0, false, "humidity_" + std::to_string(humidity));
    EXPECT_EQ(outcome.rain_rate, 0.0);
    EXPECT_EQ(outcome.substeps, 1);
    Column after = c;
    kessler_column(after, 300.0, false);
    EXPECT_EQ(after.qr, c.qr);
  }
}

TEST(KesslerColumnTest, SubsaturatedColumnWithoutCloudOrRainStaysBitForBit) {
  // nz = 12, dz = 300 m, relative humidity 0.7: prod < 0 and max(prod, −q_c) = −0, no rain to fall or evaporate.
  Column c = dry_column(12, 300.0);
  for (int k = 0; k < c.nz(); ++k) c.qv[k] = 0.7 * saturation(c, k);
  for (const bool rain : {false, true}) {
    SCOPED_TRACE(rain);
    Column after = c;
    const KesslerOutcome outcome = kessler_column(after, 60.0, rain);
    EXPECT_EQ(after.theta, c.theta);
    EXPECT_EQ(after.qv, c.qv);
    EXPECT_EQ(after.qc, c.qc);
    EXPECT_EQ(after.qr, c.qr);
    EXPECT_EQ(outcome.rain_rate, 0.0);
    EXPECT_EQ(outcome.clipped, 0.0);
    EXPECT_EQ(outcome.substeps, 1);
  }
}

TEST(KesslerColumnTest, WaterLeavesOnlyAsRainAtTheGroundOrEntersThroughClips) {
  expect_water_conserved(rainy_column(1.0), 2.0);
  expect_water_conserved(rainy_column(1.0), 60.0);
  expect_water_conserved(rainy_column(5.0), 600.0);
}

TEST(KesslerColumnTest, TheLidKeepsTheRain) {
  // nz = 20, dz = 400 m, saturated (q_v = q_vs), 2 g/kg of rain at the top level only; it falls at ≈ 10 m/s.
  Column c = dry_column(20, 400.0);
  for (int k = 0; k < c.nz(); ++k) c.qv[k] = saturation(c, k);
  c.qr.back() = 2e-3;
  // 10 s: the top loses a quarter of its rain to the level below, nothing reaches the ground, nothing is clipped.
  Column after = c;
  const KesslerOutcome outcome = kessler_column(after, 10.0, true);
  EXPECT_EQ(outcome.rain_rate, 0.0);
  EXPECT_EQ(outcome.clipped, 0.0);
  EXPECT_GT(after.qr[c.nz() - 2], 0.0);
  EXPECT_LT(after.qr.back(), c.qr.back());
  expect_water_conserved(c, 10.0);
  expect_routine_matches_transcription(c, 10.0, true, "dt_10");
  // 120 s: the top level is no part of Δt_max, so one sub-step takes more than the top holds; its clip adds the rest.
  const KesslerOutcome clipping = expect_routine_matches_transcription(c, 120.0, true, "dt_120");
  EXPECT_EQ(clipping.substeps, 1);
  EXPECT_GT(clipping.clipped, 0.0);
  expect_water_conserved(c, 120.0);
}

TEST(KesslerColumnTest, CondensationWarmsByTheLatentHeatItReleases) {
  // nz = 20, dz = 450 m, relative humidity 1.04, cloud 0.2 g/kg at levels 3–9, no rain.
  Column c = dry_column(20, 450.0);
  for (int k = 0; k < c.nz(); ++k) {
    c.qv[k] = 1.04 * saturation(c, k);
    c.qc[k] = k >= 3 && k < 10 ? 2e-4 : 0.0;
  }
  Column after = c;
  kessler_column(after, 300.0, false);
  for (int k = 0; k < c.nz(); ++k) {
    const double condensed = after.qc[k] - c.qc[k];
    EXPECT_GT(condensed, 0.0) << "level " << k;
    const double heating = lv / (cp * c.exner[k]) * condensed;
    EXPECT_NEAR(after.theta[k] - c.theta[k], heating, 1e-12 * heating) << "level " << k;
    EXPECT_NEAR(after.qv[k] + after.qc[k], c.qv[k] + c.qc[k], 1e-15 * (c.qv[k] + c.qc[k])) << "level " << k;
  }
}

TEST(KesslerColumnTest, TheRainTermsWithoutRainAreTheBitsOfTheirFormulas) {
  // The routine skips the powers of the fall speed, the accretion and the evaporation where there is no rain;
  // the formulas themselves give +0 there, for q_r = +0, −0 and below 0 (a q_r the clips have not reached yet).
  const auto bits_of = [](double value) { return std::bit_cast<std::uint64_t>(value); };
  for (const double qr : {0.0, -0.0, -3e-7}) {
    SCOPED_TRACE(qr);
    const double rho_d = 0.9, ground = 1.15;
    const double speed = 36.34 * std::pow(0.001 * rho_d * std::max(qr, 0.0), 0.1364) * std::sqrt(ground / rho_d);
    EXPECT_EQ(bits_of(kessler::fall_speed(rho_d, qr, ground)), bits_of(speed));
    EXPECT_EQ(bits_of(kessler::accretion_power(qr)), bits_of(std::pow(std::max(qr, 0.0), 0.875)));
    if (qr >= 0.0) {  // r q_r of a clipped q_r: ±0
      const double rain_density = 0.001 * rho_d * qr;
      EXPECT_EQ(bits_of(kessler::ventilation(rain_density)),
                bits_of((1.6 + 124.9 * std::pow(rain_density, 0.2046)) * std::pow(rain_density, 0.525)));
    }
  }
  // With rain they are the formulas.
  EXPECT_EQ(kessler::accretion_power(2e-3), std::pow(2e-3, 0.875));
  EXPECT_EQ(kessler::ventilation(1e-6), (1.6 + 124.9 * std::pow(1e-6, 0.2046)) * std::pow(1e-6, 0.525));
}

/// The transcription of the hole filling: content S summed from the bottom up, then step 2's three cases.
std::vector<double> filled_by_transcription(const std::vector<double>& rho_x, double dz, double& clipped) {
  double content = 0.0, positive = 0.0;
  bool holes = false;
  for (const double value : rho_x) {
    content += value;
    positive += std::max(value, 0.0);
    holes = holes || value < 0.0;
  }
  clipped = content < 0.0 ? -content * dz : 0.0;
  if (!holes) return rho_x;
  if (content < 0.0) return std::vector<double>(rho_x.size(), 0.0);
  const double factor = content / positive;
  std::vector<double> filled;
  for (const double value : rho_x) filled.push_back(value < 0.0 ? 0.0 : value * factor);
  return filled;
}

TEST(KesslerColumnTest, HoleFillingLeavesAColumnWithoutNegativesBitForBit) {
  const std::vector<double> rho_x = {3e-3, 2.5e-3, 0.0, -0.0, 1e-9, 4.2e-4, 0.0, 7e-6};
  const HoleFill fill = hole_fill_of(rho_x.data(), 8, 250.0);
  EXPECT_EQ(fill.kind, HoleFill::Kind::untouched);
  EXPECT_EQ(fill.clipped, 0.0);
  for (const double value : rho_x) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(fill(value)), std::bit_cast<std::uint64_t>(value)) << value;
  }
}

/// Level k of a column whose levels lie `stride` values apart.
struct Strided {
  const double* values;
  int stride;

  double operator[](int k) const { return values[k * stride]; }
};

TEST(KesslerColumnTest, HoleFillingScalesAColumnWithNonNegativeContent) {
  // A cloud's edges undershot by the advection; S > 0. Stored with stride 3, as a column of a 3-D field may be.
  const std::vector<double> rho_x = {-2e-5, 1e-4, 8e-4, 1.3e-3, 9e-4, -4e-5, -1.5e-4, 2e-4, 0.0, -1e-6, 3e-7};
  std::vector<double> strided(3 * rho_x.size(), 99.0);
  for (std::size_t k = 0; k < rho_x.size(); ++k) strided[3 * k] = rho_x[k];
  const int nz = static_cast<int>(rho_x.size());
  const HoleFill fill = hole_fill_of(Strided{strided.data(), 3}, nz, 400.0);
  EXPECT_EQ(fill.kind, HoleFill::Kind::scaled);
  EXPECT_EQ(fill.clipped, 0.0);
  double clipped = 0.0, content = 0.0, filled_content = 0.0;
  const std::vector<double> expected = filled_by_transcription(rho_x, 400.0, clipped);
  for (int k = 0; k < nz; ++k) {
    const double filled = fill(rho_x[k]);
    EXPECT_GE(filled, 0.0) << "level " << k;
    EXPECT_NEAR(filled, expected[k], 1e-15 * expected[k]) << "level " << k;
    content += rho_x[k];
    filled_content += filled;
  }
  EXPECT_NEAR(filled_content, content, 1e-15 * content);
  // S = 0 exactly belongs to the scaled case (factor 0), not to the emptied one.
  const std::vector<double> balanced = {2.5e-4, -2.5e-4, 0.0};
  EXPECT_EQ(hole_fill_of(balanced.data(), 3, 400.0).kind, HoleFill::Kind::scaled);
}

TEST(KesslerColumnTest, HoleFillingEmptiesAColumnWithNegativeContentAndCountsItAsClipped) {
  const std::vector<double> rho_x = {-3e-4, 1e-4, -2e-4, 5e-5, 0.0, -1e-5};
  const HoleFill fill = hole_fill_of(rho_x.data(), 6, 300.0);
  EXPECT_EQ(fill.kind, HoleFill::Kind::emptied);
  double clipped = 0.0;
  filled_by_transcription(rho_x, 300.0, clipped);
  EXPECT_DOUBLE_EQ(fill.clipped, clipped);
  EXPECT_NEAR(fill.clipped, 3.6e-4 * 300.0, 1e-15);
  for (const double value : rho_x) EXPECT_EQ(fill(value), 0.0);
}

}  // namespace
}  // namespace simapp
