#pragma once
/// The step a run takes, in words, from the values that define it: the StepScheme, the
/// domain's boundary conditions and execution.check_every (what `simapp --plan` prints first).
#include <string>
#include <vector>

#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/time/step_scheme.hpp"

namespace simapp {

/// A few lines: the passes of each parity, the stages with their dt fractions and arrays, where
/// ghost cells are filled and exchanged, the health check's cadence, the condition of each side.
std::vector<std::string> describe_step(const StepScheme& scheme, const BoundaryConditions<2>& domain, int check_every);
/// The 3-D model's (step_scheme_3d(): x, y, z | z, y, x; six sides).
std::vector<std::string> describe_step(const StepSchemeOf<3>& scheme, const BoundaryConditions<3>& domain,
                                       int check_every);

/// The first line: the passes of each parity ("passes: odd steps x then z; even steps z then
/// x"), for the 2-D model's scheme (2 passes) or the 3-D model's (3).
template <int Passes>
std::string describe_passes(const StepSchemeOf<Passes>& scheme);

}  // namespace simapp
