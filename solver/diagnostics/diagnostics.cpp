#include "solver/diagnostics/diagnostics.hpp"

#include <vector>

#include "kernels/diagnostics/mass_energy.hpp"

namespace simapp {

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now) {
  return {(now.mass - start.mass) / start.mass, (now.total_energy - start.total_energy) / start.total_energy};
}

Diagnostics DiagnosticsReducer::compute(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                                        const CellGeometry& geometry) const {
  sum_mass_energy_rows(stream, state, background, row_sums_.data());
  return total(stream, geometry.dx * geometry.dz);
}

Diagnostics DiagnosticsReducer::compute(const Stream& stream, FieldView3d<const double> state,
                                        HydrostaticView background, const CellGeometry3d& geometry) const {
  sum_mass_energy_rows_3d(stream, state, background, row_sums_.data());
  return total(stream, geometry.xz.dx * geometry.dy * geometry.xz.dz);
}

Diagnostics DiagnosticsReducer::total(const Stream& stream, double volume) const {
  const std::vector<ExactSum> rows = row_sums_.copy_to_host(stream);
  const std::size_t nz = rows.size() / 2;
  ExactSum local[2];
  for (std::size_t k = 0; k < nz; ++k) {
    local[0].add(rows[k]);
    local[1].add(rows[nz + k]);
  }

  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  std::vector<ExactSum> all(2 * static_cast<std::size_t>(ranks));
  MPI_Allgather(local, static_cast<int>(sizeof local), MPI_BYTE, all.data(), static_cast<int>(sizeof local), MPI_BYTE,
                comm_);
  ExactSum density, energy;
  for (int r = 0; r < ranks; ++r) {
    density.add(all[2 * r]);
    energy.add(all[2 * r + 1]);
  }
  return {density.value(density_scale_bits) * volume, energy.value(energy_scale_bits) * volume};
}

}  // namespace simapp
