#pragma once
/// The source terms of the stage tendency (stage_tendency.hpp), one value that every kernel of a
/// stage receives whole:
///   R(ρw) += S,  S = Σ_terms S_term(i, j, k)
/// Each term is a member of SourceTerms with its own file and point function
/// (momentum_source(i, j, k, context, term)), added here; today the one term is the gravity_waves
/// forcing (gravity_wave_forcing.hpp). The kernels' parameters hold the value as it is, so it
/// stays a plain aggregate of device-copyable terms.
#include "kernels/backend/host_device.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/update/gravity_wave_forcing.hpp"

namespace simapp {

/// Every source term of the model, each inactive when its case has none.
template <int Dims>
struct SourceTerms {
  GravityWaveForcing<Dims> gravity_waves;
};

/// S at cell (i, j, k) in a pass along D: the terms' momentum sources summed.
template <Direction D, int Dims>
SIMAPP_HOST_DEVICE inline double momentum_source(int i, int j, int k, const FluxContext<Dims>& context,
                                                 const SourceTerms<Dims>& terms) {
  return momentum_source<D>(i, j, k, context, terms.gravity_waves);
}

}  // namespace simapp
