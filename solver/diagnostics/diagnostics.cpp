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
  const double cell_area = geometry.dx * geometry.dz;
  return {density.value(density_scale_bits) * cell_area, energy.value(energy_scale_bits) * cell_area};
}

}  // namespace simapp
