#include "solver/column/run_column.hpp"

#include "solver/column/soundings.hpp"

namespace simapp {

std::optional<ColumnSource> run_column(const RunSpec& spec) {
  if (spec.background.sounding)
    return ColumnSource{sounding_of(*spec.background.sounding), spec.background.sounding->surface_pressure};
  constexpr double surface_pressure = 1.0e5;  // Pa, both cases'
  switch (case_sounding(spec.case_name)) {
    case CaseSounding::none: return std::nullopt;
    case CaseSounding::moist_neutral:
      return ColumnSource{
          moist_neutral_sounding(MoistBubble::equivalent_theta, MoistBubble::total_water, surface_pressure),
          surface_pressure};
    case CaseSounding::supercell: return ColumnSource{supercell_sounding(), surface_pressure};
  }
  return std::nullopt;
}

}  // namespace simapp
