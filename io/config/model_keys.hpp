#pragma once
/// The keys that reach beyond the 2-D model and the case's own bump: grid.ny, grid.ylen, a
/// third number in parallel.ranks, and perturbation.*.
#include <string>

#include "io/config/run_limits.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp::io {

/// Fills in the defaults that depend on other keys: grid.ylen is grid.xlen, output.stats_every
/// is output.every and physics.diffusivity is physics.viscosity, when it was not given (absent
/// from `places`).
void resolve_defaults(RunSpec& spec, const KeyPlaces& places);

/// Refuses what this build cannot run, in this order: grid.ny > 1 (the 3-D model is not
/// available); parallel.ranks with py > 1 in a 2-D run; perturbation.* for a case without a
/// bump (injection, rest) or for gravity_waves (its bump is the wave source, which the step
/// builder does not take from the configuration yet); perturbation.center or radii of three
/// numbers, [x, y, z], in a 2-D run. Throws simapp::Error(ExitCode::bad_input) at the place
/// of the key (`file` when it was not given) with a message that starts with "KEY = VALUE: ".
void check_model_keys(const RunSpec& spec, const KeyPlaces& places, const std::string& file);

}  // namespace simapp::io
