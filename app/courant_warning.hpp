#pragma once
/// The warning line --validate and a run's header give where the run's Courant number exceeds the
/// largest at which the scheme was measured stable (docs/validation.md, "Stable Courant
/// numbers", scripts/stable_cfl.py): a warning, not a refusal, as a flow gentler than the
/// measured cases' may still run.
#include <optional>
#include <string>

#include "solver/spec/run_spec.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp::app {

/// The Courant number the run's steps take: dt · 450 m/s / min(dx, (dy,) dz), which is time.cfl
/// unless the diffusive bound makes dt shorter.
double courant_number(const RunSpec& spec, const TimeStepping& stepping);

/// The largest Courant number at which every measured case stayed healthy, for the model and
/// hyperviscosity of `spec`.
double measured_stable_courant_number(const RunSpec& spec);

/// `time.cfl = 20 is above the largest stable value measured …; the run may blow up` where the
/// run of `spec` stepping as `stepping` does takes a Courant number above
/// measured_stable_courant_number; none otherwise.
std::optional<std::string> courant_warning(const RunSpec& spec, const TimeStepping& stepping);

}  // namespace simapp::app
