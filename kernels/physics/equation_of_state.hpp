#pragma once
/// Equation of state of dry air in potential-temperature form: p = C₀ (ρθ)^γ.
#include <cmath>
#include <type_traits>

#include "kernels/backend/fused_multiply_add.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp::physics {

/// p = C₀ (ρθ)^γ = C₀ exp(γ ln ρθ), Pa (ρθ > 0). exp and log take a GPU about a third of the
/// instructions of a general pow, which is a quarter of a stage kernel's; the result is within
/// a few ulp of pow's.
SIMAPP_HOST_DEVICE inline double pressure(double rho_theta) { return c0 * exp(gamma * log(rho_theta)); }

/// A reference state for pressures near it: ρθ_ref, its reciprocal and p_ref = pressure(ρθ_ref)
/// (the background at a cell row or an interface).
struct PressureReference {
  double rho_theta = 0.0;
  double inv_rho_theta = 0.0;
  double pressure = 0.0;
};

/// Binomial coefficients c_n = γ(γ − 1)…(γ − n + 1)/n! of (1 + ε)^γ = Σ c_n εⁿ.
inline constexpr double binomial_gamma(int n) { return n == 0 ? 1.0 : binomial_gamma(n - 1) * (gamma - n + 1) / n; }

#if defined(__CUDACC__)
/// c₀ … c₈ in the GPU's constant bank, which a double fused multiply-add reads as an operand as it
/// is, where a double written in the code first takes two moves into registers (16 instructions
/// of a face's two hundred: docs/performance.md, "Instructions a cell"). Not const: a const
/// array's values the compiler writes back into the code.
static __constant__ double binomial_gamma_constants[9] = {binomial_gamma(0), binomial_gamma(1), binomial_gamma(2),
                                                          binomial_gamma(3), binomial_gamma(4), binomial_gamma(5),
                                                          binomial_gamma(6), binomial_gamma(7), binomial_gamma(8)};
#endif

/// c_n in the state's type Real (on the GPU a double's from binomial_gamma_constants: the same
/// value, the compiler's).
template <class Real, int N>
SIMAPP_HOST_DEVICE inline Real series_coefficient() {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Real, double>) return binomial_gamma_constants[N];
#endif
  return Real(binomial_gamma(N));
}

/// c_N + ε(c_{N+1} + … + ε c_Last) by Horner's rule in fused multiply-adds, innermost first.
template <class Real, int N, int Last>
SIMAPP_HOST_DEVICE inline Real series_from(Real epsilon) {
  if constexpr (N == Last)
    return series_coefficient<Real, N>();
  else
    return fma(epsilon, series_from<Real, N + 1, Last>(epsilon), series_coefficient<Real, N>());
}

/// |ε| up to which pressure_change sums the series: its first term left out, c₉ ε⁹ with
/// |c₉| < 0.0024, is below 2⁻⁵⁶ of the sum (≈ γε) there, a sixteenth of an ulp.
inline constexpr double series_epsilon_limit = 1.0 / 64;

/// p − p_ref = C₀(ρθ_ref + δ)^γ − C₀ρθ_ref^γ = p_ref ((1 + ε)^γ − 1), ε = δ/ρθ_ref. Near the
/// reference (|ε| ≤ 1/64: pressure perturbations in the model's flows are a few 10⁻³ of p̄) by
/// the series ε(c₁ + ε(c₂ + … + ε c₈)) (Horner's rule in fused multiply-adds), which takes a GPU a tenth of the
/// instructions of exp and log and has no cancellation of p and p_ref; farther, as pressure(ρθ) − p_ref. Zero exactly
/// for δ = 0 (a state at rest). In the state's type Real; the rare far case in double, rounded
/// once. In float the series stops at c₄ ε⁴: the first term left out, c₅ ε⁵ with |c₅| < 0.012, is
/// below 2⁻³⁰ of the sum there, a sixty-fourth of a float's ulp.
template <class Real>
SIMAPP_HOST_DEVICE inline Real pressure_change(Real delta, const PressureReference& reference) {
  const Real epsilon = delta * Real(reference.inv_rho_theta);
  if (std::fabs(epsilon) > Real(series_epsilon_limit))
    return Real(pressure(reference.rho_theta + delta) - reference.pressure);
  constexpr int last = sizeof(Real) < sizeof(double) ? 4 : 8;
  return Real(reference.pressure) * (series_from<Real, 1, last>(epsilon) * epsilon);
}

/// ρθ = (p / C₀)^(1/γ): the inverse of `pressure`.
SIMAPP_HOST_DEVICE inline double rho_theta_from_pressure(double p) { return pow(p / c0, 1.0 / gamma); }

/// T = θ (p / p₀)^(R_d / c_p), K.
SIMAPP_HOST_DEVICE inline double temperature(double theta, double p) { return theta * pow(p / p0, rd / cp); }

}  // namespace simapp::physics
