#pragma once
/// Warm-rain (Kessler) microphysics of one column of cells (docs/model.md, "Moisture"): the
/// hole filling of a water tracer, then the column routine of the DCMIP2016 warm-rain physics
/// (Kessler 1969; Klemp & Wilhelmson 1978, "KW"), with the model's c_p and a lid that keeps
/// the rain it sediments. Level 0 is the lowest; the levels are dz apart. A ColumnTeam
/// (kernels/backend/column_team.hpp) runs a column: one host thread, or a CUDA block whose
/// threads share the levels; the per-level arithmetic is the point functions below, every level
/// in parallel, and what the levels need of each other (the hole filling's sums, the sub-steps'
/// Δt_max, the sedimentation's flux from above, the clipped water) goes through the column's
/// scratch between barriers, reduced by the team's fixed tree: the same bits for every team. No
/// loop's length depends on another column.
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels/backend/column_team.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

/// Level k of a column whose levels lie `stride` values apart.
template <class T>
struct ColumnOf {
  T* values = nullptr;
  std::ptrdiff_t stride = 1;

  SIMAPP_HOST_DEVICE T& operator[](int k) const { return values[k * stride]; }
  /// The same levels, read-only.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  SIMAPP_HOST_DEVICE operator ColumnOf<const U>() const {
    return {values, stride};
  }
};

/// What the hole filling does to one tracer of a column (its content S = Σ_k ρ_x,k, summed by
/// the team's tree):
///   untouched: no ρ_x,k < 0, the column stays bit for bit;
///   scaled:    S ≥ 0: the negative ρ_x,k become 0, the positive ones × factor = S / Σ_k max(ρ_x,k, 0);
///   emptied:   S < 0: every ρ_x,k becomes 0, and −S dz of water is added (clipped, kg m⁻²).
struct HoleFill {
  enum class Kind { untouched, scaled, emptied };
  Kind kind = Kind::untouched;
  double factor = 1.0;
  double clipped = 0.0;

  /// ρ_x,k filled.
  SIMAPP_HOST_DEVICE double operator()(double value) const {
    if (kind == Kind::untouched) return value;
    if (kind == Kind::emptied || value < 0.0) return 0.0;
    return value * factor;
  }
};

/// The hole filling's scratch, a value a level each: ρ_x, max(ρ_x, 0) and ρ_x, reduced to
/// S, Σ max(ρ_x, 0) and min ρ_x.
struct HoleFillScratch {
  ColumnOf<double> content;
  ColumnOf<double> positive;
  ColumnOf<double> lowest;
};

/// The hole filling of the nz levels of `tracer` (mass densities ρ_x, kg m⁻³, tracer[k] of level
/// k) dz apart, by `team` in `scratch`; every thread of the team gets it, and the scratch is free
/// again when it returns.
template <class Team, class Column>
SIMAPP_HOST_DEVICE HoleFill hole_fill_of(const Team& team, const Column& tracer, const HoleFillScratch& scratch, int nz,
                                         double dz) {
  team.for_levels(nz, [&](int k) {
    const double value = tracer[k];
    scratch.content[k] = value;
    scratch.positive[k] = value < 0.0 ? 0.0 : value;
    scratch.lowest[k] = value;
  });
  team.reduce_levels(nz, [&](int k, int above) {
    scratch.content[k] += scratch.content[above];
    scratch.positive[k] += scratch.positive[above];
    scratch.lowest[k] = fmin(scratch.lowest[k], scratch.lowest[above]);
  });
  const double content = scratch.content[0], positive = scratch.positive[0];
  const bool holes = scratch.lowest[0] < 0.0;
  team.sync();
  if (!holes) return {};
  if (content >= 0.0) return {HoleFill::Kind::scaled, content / positive, 0.0};
  return {HoleFill::Kind::emptied, 0.0, -content * dz};
}

/// The column the routine works on: θ_d = T/Π and the mixing ratios q_x = ρ_x/ρ_d, updated in
/// place; ρ_d and Π = (p/p₀)^(R_d/c_p), read.
struct KesslerColumn {
  ColumnOf<double> theta;  ///< θ_d, K
  ColumnOf<double> qv;     ///< vapour, kg kg⁻¹
  ColumnOf<double> qc;     ///< cloud water, kg kg⁻¹
  ColumnOf<double> qr;     ///< rain, kg kg⁻¹
  ColumnOf<const double> rho_d;
  ColumnOf<const double> exner;
  ColumnOf<double> flux;     ///< scratch: Δt_max's candidates, then r q_r V of each sub-step's start
  ColumnOf<double> clipped;  ///< scratch: each level's clipped water, then their sum
  int nz = 0;
  double dz = 0.0;  ///< m
};

/// What a call of the routine gives besides the column.
struct KesslerOutcome {
  double rain_rate = 0.0;  ///< at the ground, m s⁻¹ of liquid water, the mean over the sub-steps (level 0's thread)
  double clipped = 0.0;    ///< water the clips to q ≥ 0 added, Σ_k ρ_d,k Δq_k dz, kg m⁻²
  int substeps = 1;
};

namespace kessler {

inline constexpr double fall_coefficient = 36.34;  ///< KW 2.15, m s⁻¹
inline constexpr double fall_exponent = 0.1364;
inline constexpr double courant = 0.8;  ///< a sub-step lets rain fall 0.8 dz at most
/// c₂ of the saturation adjustment (KW 3.10): 237.3 · 17.27 · l_v / c_p, K².
inline constexpr double adjustment_c2 = 237.3 * 17.27 * physics::lv / physics::cp;

/// Terminal fall speed of rain (KW 2.15): V = 36.34 (0.001 ρ_d max(q_r, 0))^0.1364 √(ρ_d,0/ρ_d), m s⁻¹.
SIMAPP_HOST_DEVICE inline double fall_speed(double rho_d, double qr, double rho_d_ground) {
  return fall_coefficient * pow(0.001 * rho_d * fmax(qr, 0.0), fall_exponent) * sqrt(rho_d_ground / rho_d);
}

/// 380/p with p = p₀ Π^(c_p/R_d), Pa⁻¹ (the factor of the saturation mixing ratio, KW 2.11).
SIMAPP_HOST_DEVICE inline double saturation_factor(double exner) {
  return 380.0 / (physics::p0 * pow(exner, physics::cp / physics::rd));
}

/// Saturation mixing ratio q_vs = 380/p · exp(17.27 (T − 273)/(T − 36)) (KW 2.11), kg kg⁻¹.
SIMAPP_HOST_DEVICE inline double saturation_mixing_ratio(double factor, double temperature) {
  return factor * exp(17.27 * (temperature - 273.0) / (temperature - 36.0));
}

/// max(value, 0), adding what the clip adds (ρ_d Δq dz) to `clipped`.
SIMAPP_HOST_DEVICE inline double clipped_to_zero(double value, double rho_d_dz, double& clipped) {
  if (value >= 0.0) return value;
  clipped -= value * rho_d_dz;
  return 0.0;
}

/// The saturation adjustment of level k (KW 3.10) after `evaporation` (KW 2.14, 0 without
/// rain): net condensation max(prod, −q_c), θ_d += l_v/(c_p Π)·(condensation − evaporation),
/// q_v −= condensation − evaporation (clipped to ≥ 0), q_c += condensation, q_r −= evaporation.
SIMAPP_HOST_DEVICE inline void adjust_saturation(const KesslerColumn& c, int k, double prod, double evaporation,
                                                 double& clipped) {
  const double condensation = fmax(prod, -c.qc[k]);
  const double exner = c.exner[k];
  c.theta[k] = c.theta[k] + physics::lv / (physics::cp * exner) * (condensation - evaporation);
  c.qv[k] = clipped_to_zero(c.qv[k] - condensation + evaporation, c.rho_d[k] * c.dz, clipped);
  c.qc[k] = c.qc[k] + condensation;
  c.qr[k] = c.qr[k] - evaporation;
}

/// prod = (q_v − q_vs)/(1 + q_vs c₂/(T − 36)²) of level k, with its q_vs and 380/p.
struct Supersaturation {
  double prod;
  double qvs;
  double factor;
};

SIMAPP_HOST_DEVICE inline Supersaturation supersaturation(const KesslerColumn& c, int k) {
  const double factor = saturation_factor(c.exner[k]);
  const double temperature = c.exner[k] * c.theta[k];
  const double qvs = saturation_mixing_ratio(factor, temperature);
  const double cold = temperature - 36.0;
  return {(c.qv[k] - qvs) / (1.0 + qvs * adjustment_c2 / (cold * cold)), qvs, factor};
}

/// A rain sub-step of dt₀ at level k after its sedimentation (Δq_r): autoconversion and
/// accretion, rain evaporation and the saturation adjustment (kessler_column's comment).
SIMAPP_HOST_DEVICE inline void rain_substep(const KesslerColumn& c, int k, double dt0, double sedimentation,
                                            double& clipped) {
  const double r = 0.001 * c.rho_d[k];
  const double rho_d_dz = c.rho_d[k] * c.dz;
  const double qc = c.qc[k];
  const double qrprod =
      qc - (qc - dt0 * fmax(0.001 * (qc - 0.001), 0.0)) / (1.0 + dt0 * 2.2 * pow(fmax(c.qr[k], 0.0), 0.875));
  c.qc[k] = clipped_to_zero(qc - qrprod, rho_d_dz, clipped);
  c.qr[k] = clipped_to_zero(c.qr[k] + qrprod + sedimentation, rho_d_dz, clipped);

  const Supersaturation s = supersaturation(c, k);
  const double rain_density = r * c.qr[k];
  const double evaporation = fmin(fmin(dt0 *
                                           ((1.6 + 124.9 * pow(rain_density, 0.2046)) * pow(rain_density, 0.525) /
                                            (2550000.0 * s.factor / (3.8 * s.qvs) + 540000.0)) *
                                           (fmax(s.qvs - c.qv[k], 0.0) / (r * s.qvs)),
                                       fmax(-s.prod - c.qc[k], 0.0)),
                                  c.qr[k]);
  adjust_saturation(c, k, s.prod, evaporation, clipped);
}

}  // namespace kessler

/// The Kessler column routine over dt (s), by `team`.
///
/// Without rain (`rain` false: the reversible, non-precipitating system) each level's
/// saturation adjustment alone, once. With rain, n = ⌈dt/Δt_max⌉ sub-steps of dt₀ = dt/n,
/// Δt_max = min(dt, min over levels k below the top with V_k ≠ 0 of 0.8 dz/V_k); each sub-step:
///   rate += ρ_d,0 q_r,0 V_0 / ρ_w;
///   sedimentation, upstream: level k gains dt₀ (r_{k+1} q_r,k+1 V_{k+1} − r_k q_r,k V_k)/(r_k dz),
///   r = 0.001 ρ_d; the top level loses dt₀ q_r V/dz (what the level below gains: the lid keeps it);
///   per level (rain_substep): autoconversion and accretion (KW 2.13, implicit)
///     qrprod = q_c − (q_c − dt₀ max(0.001 (q_c − 0.001), 0))/(1 + dt₀ 2.2 max(q_r, 0)^0.875),
///     q_c = max(q_c − qrprod, 0), q_r = max(q_r + qrprod + sed, 0);
///   rain evaporation (KW 2.14)
///     ern = min(dt₀ (1.6 + 124.9 (r q_r)^0.2046)(r q_r)^0.525 / (2.55e6 (380/p)/(3.8 q_vs) + 5.4e5)
///               · max(q_vs − q_v, 0)/(r q_vs),  max(−prod − q_c, 0),  q_r),
///   and the saturation adjustment (adjust_saturation).
/// V is that of the sub-step's start: every level's flux r q_r V goes to c.flux, a barrier, then
/// every level's update, a barrier. The rate is the mean over the sub-steps, on the thread of
/// level 0; the clipped water is each level's sum over the sub-steps, summed over the levels by
/// the team's tree. The number of sub-steps is the column's own: no other column is read.
template <class Team>
SIMAPP_HOST_DEVICE KesslerOutcome kessler_column(const Team& team, const KesslerColumn& c, double dt, bool rain) {
  using namespace kessler;
  KesslerOutcome outcome;
  team.for_levels(c.nz, [&](int k) { c.clipped[k] = 0.0; });
  if (!rain) {
    team.for_levels(c.nz, [&](int k) { adjust_saturation(c, k, supersaturation(c, k).prod, 0.0, c.clipped[k]); });
  } else {
    const double rho_d_ground = c.rho_d[0];
    team.for_levels(c.nz, [&](int k) {
      const double speed = k + 1 < c.nz ? fall_speed(c.rho_d[k], c.qr[k], rho_d_ground) : 0.0;
      c.flux[k] = speed != 0.0 ? courant * c.dz / speed : dt;
    });
    team.reduce_levels(c.nz, [&](int k, int above) { c.flux[k] = fmin(c.flux[k], c.flux[above]); });
    const int substeps = static_cast<int>(ceil(dt / c.flux[0]));
    team.sync();
    const double dt0 = dt / substeps;
    double rate = 0.0;
    for (int n = 0; n < substeps; ++n) {
      team.for_levels(c.nz, [&](int k) {
        const double speed = fall_speed(c.rho_d[k], c.qr[k], rho_d_ground);
        c.flux[k] = 0.001 * c.rho_d[k] * c.qr[k] * speed;
        if (k == 0) rate += c.rho_d[0] * c.qr[0] * speed / physics::rho_water;
      });
      team.sync();
      team.for_levels(c.nz, [&](int k) {
        const double sedimentation = k + 1 < c.nz
                                         ? dt0 * (c.flux[k + 1] - c.flux[k]) / (0.001 * c.rho_d[k] * c.dz)
                                         : -dt0 * c.qr[k] * fall_speed(c.rho_d[k], c.qr[k], rho_d_ground) / c.dz;
        rain_substep(c, k, dt0, sedimentation, c.clipped[k]);
      });
      team.sync();
    }
    outcome.rain_rate = rate / substeps;
    outcome.substeps = substeps;
  }
  team.reduce_levels(c.nz, [&](int k, int above) { c.clipped[k] += c.clipped[above]; });
  outcome.clipped = c.clipped[0];
  team.sync();
  return outcome;
}

}  // namespace simapp
