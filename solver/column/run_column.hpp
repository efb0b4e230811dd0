#pragma once
/// The sounding a run's background is integrated from, if any (docs/model.md, "Moist
/// backgrounds"): background.sounding's, else its case's (moist_bubble, supercell).
#include <optional>

#include "solver/column/column_background.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// None where the run stands on its case's analytic background.
std::optional<ColumnSource> run_column(const RunSpec& spec);

}  // namespace simapp
