#pragma once
/// Warm-rain (Kessler) microphysics of one column of cells (docs/model.md, "Moisture"): the
/// hole filling of a water tracer, then the column routine of the DCMIP2016 warm-rain physics
/// (Kessler 1969; Klemp & Wilhelmson 1978, "KW"), with the model's c_p and a lid that keeps
/// the rain it sediments. Level 0 is the lowest; the levels are dz apart. The routine is written
/// a level at a time (namespace kessler: level_substep, adjustment_only, rain_fall, substep_limit),
/// and kessler_column sweeps a column's levels with them, the sedimentation's flux from above
/// carried from one level to the next and the sums over the column in the sweep's order; a routine
/// that runs a column's levels at once in that order (microphysics_levels.cuh) gives its bits. No
/// loop's length depends on another column.
#include <cmath>

#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

/// What the hole filling does to one tracer of a column (its content S = Σ_k ρ_x,k, summed from
/// the lowest level up):
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

/// The sums of the hole filling over a tracer's column, its levels added from the lowest up.
struct HoleFillSums {
  double content = 0.0;   ///< S = Σ_k ρ_x,k
  double positive = 0.0;  ///< Σ_k max(ρ_x,k, 0)
  bool holes = false;     ///< some ρ_x,k < 0

  SIMAPP_HOST_DEVICE void add(double value) {
    content += value;
    positive += value < 0.0 ? 0.0 : value;
    holes = holes || value < 0.0;
  }
  /// The hole filling of the levels added, dz apart.
  SIMAPP_HOST_DEVICE HoleFill fill(double dz) const {
    if (!holes) return {};
    if (content >= 0.0) return {HoleFill::Kind::scaled, content / positive, 0.0};
    return {HoleFill::Kind::emptied, 0.0, -content * dz};
  }
};

/// The hole filling of the nz levels of `tracer` (mass densities ρ_x, kg m⁻³, tracer[k] of level
/// k) dz apart.
template <class Column>
SIMAPP_HOST_DEVICE HoleFill hole_fill_of(const Column& tracer, int nz, double dz) {
  HoleFillSums sums;
  for (int k = 0; k < nz; ++k) sums.add(tracer[k]);
  return sums.fill(dz);
}

/// The values of one level the routine works on: θ_d = T/Π and the mixing ratios q_x = ρ_x/ρ_d,
/// updated; ρ_d and Π = (p/p₀)^(R_d/c_p), read.
struct KesslerLevel {
  double theta;  ///< θ_d, K
  double qv;     ///< vapour, kg kg⁻¹
  double qc;     ///< cloud water, kg kg⁻¹
  double qr;     ///< rain, kg kg⁻¹
  double rho_d;  ///< kg m⁻³
  double exner;
};

/// What a call of the routine gives besides the column.
struct KesslerOutcome {
  double rain_rate = 0.0;  ///< at the ground, m s⁻¹ of liquid water, the mean over the sub-steps
  double clipped = 0.0;    ///< water the clips to q ≥ 0 added, Σ_k ρ_d,k Δq_k dz, kg m⁻²
  int substeps = 1;
};

namespace kessler {

inline constexpr double fall_coefficient = 36.34;  ///< KW 2.15, m s⁻¹
inline constexpr double fall_exponent = 0.1364;
inline constexpr double courant = 0.8;  ///< a sub-step lets rain fall 0.8 dz at most
/// c₂ of the saturation adjustment (KW 3.10): 237.3 · 17.27 · l_v / c_p, K².
inline constexpr double adjustment_c2 = 237.3 * 17.27 * physics::lv / physics::cp;

/// Terminal fall speed of rain (KW 2.15): V = 36.34 (0.001 ρ_d max(q_r, 0))^0.1364 √(ρ_d,0/ρ_d), m s⁻¹;
/// +0 without rain (q_r ≤ 0), as the formula gives, without its power and root. (The rain terms
/// below skip their powers alike where there is no rain, which leaves every bit as it was.)
SIMAPP_HOST_DEVICE inline double fall_speed(double rho_d, double qr, double rho_d_ground) {
  if (!(qr > 0.0)) return 0.0;
  return fall_coefficient * pow(0.001 * rho_d * qr, fall_exponent) * sqrt(rho_d_ground / rho_d);
}

/// max(q_r, 0)^0.875 of the accretion (KW 2.13).
SIMAPP_HOST_DEVICE inline double accretion_power(double qr) { return qr > 0.0 ? pow(qr, 0.875) : 0.0; }

/// (1.6 + 124.9 (r q_r)^0.2046)(r q_r)^0.525 of the rain evaporation (KW 2.14); r q_r is ≥ 0 (a
/// clipped q_r), and ±0 gives +0.
SIMAPP_HOST_DEVICE inline double ventilation(double rain_density) {
  if (rain_density == 0.0) return 0.0;
  return (1.6 + 124.9 * pow(rain_density, 0.2046)) * pow(rain_density, 0.525);
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

/// The saturation adjustment of a level dz thick (KW 3.10) after `evaporation` (KW 2.14, 0
/// without rain): net condensation max(prod, −q_c), θ_d += l_v/(c_p Π)·(condensation − evaporation),
/// q_v −= condensation − evaporation (clipped to ≥ 0), q_c += condensation, q_r −= evaporation.
SIMAPP_HOST_DEVICE inline void adjust_saturation(KesslerLevel& level, double dz, double prod, double evaporation,
                                                 double& clipped) {
  const double condensation = fmax(prod, -level.qc);
  level.theta = level.theta + physics::lv / (physics::cp * level.exner) * (condensation - evaporation);
  level.qv = clipped_to_zero(level.qv - condensation + evaporation, level.rho_d * dz, clipped);
  level.qc = level.qc + condensation;
  level.qr = level.qr - evaporation;
}

/// prod = (q_v − q_vs)/(1 + q_vs c₂/(T − 36)²) of a level, with its q_vs and 380/p.
struct Supersaturation {
  double prod;
  double qvs;
  double factor;
};

SIMAPP_HOST_DEVICE inline Supersaturation supersaturation(const KesslerLevel& level) {
  const double factor = saturation_factor(level.exner);
  const double temperature = level.exner * level.theta;
  const double qvs = saturation_mixing_ratio(factor, temperature);
  const double cold = temperature - 36.0;
  return {(level.qv - qvs) / (1.0 + qvs * adjustment_c2 / (cold * cold)), qvs, factor};
}

/// A rain sub-step of dt₀ on a level dz thick after its sedimentation (Δq_r): autoconversion and
/// accretion, rain evaporation and the saturation adjustment (kessler_column's comment).
SIMAPP_HOST_DEVICE inline void rain_substep(KesslerLevel& level, double dz, double dt0, double sedimentation,
                                            double& clipped) {
  const double r = 0.001 * level.rho_d;
  const double rho_d_dz = level.rho_d * dz;
  const double qc = level.qc;
  const double qrprod =
      qc - (qc - dt0 * fmax(0.001 * (qc - 0.001), 0.0)) / (1.0 + dt0 * 2.2 * accretion_power(level.qr));
  level.qc = clipped_to_zero(qc - qrprod, rho_d_dz, clipped);
  level.qr = clipped_to_zero(level.qr + qrprod + sedimentation, rho_d_dz, clipped);

  const Supersaturation s = supersaturation(level);
  const double rain_density = r * level.qr;
  const double evaporation =
      fmin(fmin(dt0 * (ventilation(rain_density) / (2550000.0 * s.factor / (3.8 * s.qvs) + 540000.0)) *
                    (fmax(s.qvs - level.qv, 0.0) / (r * s.qvs)),
                fmax(-s.prod - level.qc, 0.0)),
           level.qr);
  adjust_saturation(level, dz, s.prod, evaporation, clipped);
}

/// The saturation adjustment alone of a level dz thick (physics.rain: off); gives the water its
/// clip added.
SIMAPP_HOST_DEVICE inline double adjustment_only(KesslerLevel& level, double dz) {
  double clipped = 0.0;
  adjust_saturation(level, dz, supersaturation(level).prod, 0.0, clipped);
  return clipped;
}

/// The rain's fall on a level at a sub-step's start: V (fall_speed) and the flux r q_r V, r = 0.001 ρ_d.
struct RainFall {
  double speed;
  double flux;
};

SIMAPP_HOST_DEVICE inline RainFall rain_fall(const KesslerLevel& level, double rho_d_ground) {
  const double speed = fall_speed(level.rho_d, level.qr, rho_d_ground);
  return {speed, 0.001 * level.rho_d * level.qr * speed};
}

/// The longest sub-step so far, `limit`, with a level below the top whose rain falls at `speed`:
/// min(limit, 0.8 dz/V) where V ≠ 0.
SIMAPP_HOST_DEVICE inline double substep_limit(double limit, double dz, double speed) {
  return speed != 0.0 ? fmin(limit, courant * dz / speed) : limit;
}

/// The number of sub-steps of dt whose longest is dt_max: ⌈dt/dt_max⌉.
SIMAPP_HOST_DEVICE inline int substep_count(double dt, double dt_max) { return static_cast<int>(ceil(dt / dt_max)); }

/// The ground's rain rate ρ_d q_r V/ρ_w of the lowest level at a sub-step's start, m s⁻¹.
SIMAPP_HOST_DEVICE inline double ground_rain_rate(const KesslerLevel& level, const RainFall& fall) {
  return level.rho_d * level.qr * fall.speed / physics::rho_water;
}

/// A sub-step of dt₀ on a level dz thick (`top`: the column's top level) whose fall at the
/// sub-step's start is `fall`, under the flux r q_r V `flux_above` of the level above (unused at
/// the top): the sedimentation, upstream, then rain_substep. Gives the water the level's clips
/// added.
SIMAPP_HOST_DEVICE inline double level_substep(KesslerLevel& level, bool top, double dz, double dt0,
                                               const RainFall& fall, double flux_above) {
  const double r = 0.001 * level.rho_d;
  const double sedimentation = top ? -dt0 * level.qr * fall.speed / dz : dt0 * (flux_above - fall.flux) / (r * dz);
  double clipped = 0.0;
  rain_substep(level, dz, dt0, sedimentation, clipped);
  return clipped;
}

}  // namespace kessler

/// The Kessler column routine over dt (s) on the nz levels dz apart of `column`, which gives a
/// level's values at the start of a sweep and takes them back after it:
///   column.load(k, first)          a KesslerLevel, or a type derived from it that carries more of
///                                  the column's own; first: the call's first sweep;
///   column.store(k, last, level)   the level as load gave it, updated; last: the call's last sweep.
/// A sweep loads and stores each level once, from the top down.
///
/// Without rain (`rain` false: the reversible, non-precipitating system) one sweep, each level's
/// saturation adjustment alone. With rain, n = ⌈dt/Δt_max⌉ sub-steps of dt₀ = dt/n, a sweep each,
/// Δt_max = min(dt, min over levels k below the top with V_k ≠ 0 of 0.8 dz/V_k) over the start's
/// values; each sub-step (level_substep):
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
/// V and the flux r q_r V are those of the sub-step's start: a level's flux is worked out from its
/// loaded values before they change and carried down to the level below. The rate is the mean
/// over the sub-steps; the clipped water is summed a level at a time (each level's clips first) in
/// the sweeps' order, which a routine taking the levels at once can follow (microphysics_levels.cuh).
template <class Column>
SIMAPP_HOST_DEVICE KesslerOutcome kessler_column(const Column& column, int nz, double dz, double dt, bool rain) {
  using namespace kessler;
  KesslerOutcome outcome;
  if (!rain) {
    for (int k = nz - 1; k >= 0; --k) {
      auto level = column.load(k, true);
      outcome.clipped += adjustment_only(level, dz);
      column.store(k, true, level);
    }
    return outcome;
  }
  const double rho_d_ground = column.load(0, true).rho_d;
  double dt_max = dt;
  for (int k = 0; k + 1 < nz; ++k)
    dt_max = substep_limit(dt_max, dz, rain_fall(column.load(k, true), rho_d_ground).speed);
  const int substeps = substep_count(dt, dt_max);
  const double dt0 = dt / substeps;
  double rate = 0.0;
  for (int n = 0; n < substeps; ++n) {
    double flux_above = 0.0;  // r q_r V of level k + 1 at the sub-step's start
    for (int k = nz - 1; k >= 0; --k) {
      auto level = column.load(k, n == 0);
      const RainFall fall = rain_fall(level, rho_d_ground);
      if (k == 0) rate += ground_rain_rate(level, fall);
      outcome.clipped += level_substep(level, k + 1 == nz, dz, dt0, fall, flux_above);
      column.store(k, n + 1 == substeps, level);
      flux_above = fall.flux;
    }
  }
  outcome.rain_rate = rate / substeps;
  outcome.substeps = substeps;
  return outcome;
}

}  // namespace simapp
