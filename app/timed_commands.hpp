#pragma once
/// The commands that time the step rather than run the case: execution.mode compare (every
/// mode from the same state, timing.json) and --profile (a few steps op by op, profile.json).
#include "app/setup.hpp"
#include "io/files/result_file.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp::app {

/// execution.mode compare; returns 0, or ExitCode::numerical when the modes' states differ.
int compare(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite);

/// --profile: a few steps op by op against the device's copy bandwidth; table and profile.json.
int profile(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite);

}  // namespace simapp::app
