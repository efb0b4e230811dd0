#include "app/courant_warning.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "kernels/physics/constants.hpp"

namespace simapp::app {

namespace {

/// The largest time.cfl at which every case stayed healthy, with the default hyperviscosity and
/// without any (docs/validation.md, "Stable Courant numbers"): scripts/stable_cfl.py --cases
/// thermal,collision,density_current,gravity_waves,injection,straka on the host backend, each case
/// for its input's simulated time (1000 s, straka 900 s) on 128 x 64 cells in 2-D (straka 256 x 32),
/// about 1200-1900 steps, and 32 x 32 x 16 in 3-D (straka 64 x 8 x 8), about 280-450 steps, to
/// within 0.008. The lowest case: 2-D injection with, gravity_waves without; 3-D gravity_waves.
struct MeasuredLimits {
  double with_hyperviscosity;
  double without;
};
constexpr MeasuredLimits measured_2d{1.586, 1.531};
constexpr MeasuredLimits measured_3d{1.68, 1.594};

}  // namespace

double courant_number(const RunSpec& spec, const TimeStepping& stepping) {
  const double spacing = std::min(horizontal_spacing(spec.grid), spec.grid.zlen / spec.grid.nz);
  // time.cfl itself (not its round trip through dt) unless the diffusive bound makes dt shorter.
  return std::min(spec.time.cfl, stepping.dt() * numerics::max_speed / spacing);
}

double measured_stable_courant_number(const RunSpec& spec) {
  const MeasuredLimits& limits = spec.grid.ny > 1 ? measured_3d : measured_2d;
  // A hyperviscosity weaker than the default damps less than the one measured: take the limit without.
  return spec.physics.hyperviscosity >= numerics::hyperviscosity_beta ? limits.with_hyperviscosity : limits.without;
}

std::optional<std::string> courant_warning(const RunSpec& spec, const TimeStepping& stepping) {
  const double courant = courant_number(spec, stepping);
  const double stable = measured_stable_courant_number(spec);
  if (courant <= stable) return std::nullopt;
  return fmt::format(
      "time.cfl = {:g} is above the largest stable value measured for this scheme ({:g} in {} {} hyperviscosity, "
      "docs/validation.md); the run may blow up",
      spec.time.cfl, stable, spec.grid.ny > 1 ? "3-D" : "2-D",
      spec.physics.hyperviscosity >= numerics::hyperviscosity_beta ? "with the default" : "without");
}

}  // namespace simapp::app
