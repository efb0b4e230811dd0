#include "solver/diagnostics/diagnostics.hpp"

#include "kernels/diagnostics/mass_energy.hpp"

namespace simapp {

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now) {
  return {(now.mass - start.mass) / start.mass, (now.total_energy - start.total_energy) / start.total_energy};
}

Diagnostics DiagnosticsReducer::compute(const Stream& stream, FieldView<const double> state,
                                        HydrostaticView background, const CellGeometry& geometry) const {
  sum_mass_energy_rows(stream, state, background, geometry, row_sums_.data());
  const std::vector<double> rows = row_sums_.copy_to_host(stream);
  const std::size_t nz = rows.size() / 2;
  Diagnostics totals;
  for (std::size_t k = 0; k < nz; ++k) {
    totals.mass += rows[k];
    totals.total_energy += rows[nz + k];
  }
  return totals;
}

}  // namespace simapp
