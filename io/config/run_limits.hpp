#pragma once
/// Checks of a configuration that involve several keys at once.
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "solver/spec/run_spec.hpp"

namespace simapp::io {

/// Where each key was given, by key path: FILE:LINE or `--set TEXT`. A key absent from it
/// has its default.
using KeyPlaces = std::map<std::string_view, std::string, std::less<>>;

/// Checks what no single key's range expresses: at most max_grid_cells cells, arrays of at most
/// max_field_rows rows (kernels/backend/field_view.hpp), a domain the
/// case's atmosphere fills whose mass and energy a double counts (xlen · zlen, times ylen in
/// the 3-D model), at most max_time_steps steps of dt (solver/time/time_stepping.hpp), a
/// sim_time beyond round-off (at least step_tolerance · dt), and snapshot and checkpoint
/// intervals of 0 or at least dt. Throws simapp::Error(ExitCode::bad_input) at the place of
/// the key to change (`file` when none of the keys involved was given), with a message that
/// starts with that key's path.
void check_run_limits(const RunSpec& spec, const KeyPlaces& places, const std::string& file);

}  // namespace simapp::io
