#pragma once
/// Domain totals of mass and total energy (docs/model.md, "Diagnostics").
#include <mpi.h>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_shape_3d.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/diagnostics/exact_sum.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/cell_geometry_3d.hpp"

namespace simapp {

struct Diagnostics {
  double mass = 0.0;          ///< kg per metre of y (the 2-D model), kg (the 3-D model)
  double total_energy = 0.0;  ///< J per metre of y, J
};

/// Relative changes (now − start) / start, as printed in d_mass and d_te.
struct DiagnosticsChange {
  double mass = 0.0;
  double total_energy = 0.0;
};

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now);

/// Sums the diagnostics of the distributed state: exact fixed-point row sums on the backend,
/// added exactly on the host and over the ranks of `comm`, so every backend schedule, thread
/// count and decomposition gives the same bits.
class DiagnosticsReducer {
 public:
  DiagnosticsReducer(Backend backend, int nz, MPI_Comm comm)
      : row_sums_(backend, 2 * static_cast<std::size_t>(nz)), comm_(comm) {}

  /// Collective over the communicator; waits for the stream.
  Diagnostics compute(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                      const CellGeometry& geometry) const;
  /// The 3-D model's (sum_mass_energy_rows_3d, cells of dx dy dz).
  Diagnostics compute(const Stream& stream, FieldView3d<const double> state, HydrostaticView background,
                      const CellGeometry3d& geometry) const;

 private:
  /// The totals of the row sums on the backend over this rank's rows and every rank, times the
  /// cell's `volume`.
  Diagnostics total(const Stream& stream, double volume) const;

  DeviceBuffer<ExactSum> row_sums_;
  MPI_Comm comm_;
};

}  // namespace simapp
