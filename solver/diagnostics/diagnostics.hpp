#pragma once
/// Domain totals of mass and total energy (docs/model.md, "Diagnostics").
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

struct Diagnostics {
  double mass = 0.0;          ///< kg per metre of y
  double total_energy = 0.0;  ///< J per metre of y
};

/// Relative changes (now − start) / start, as printed in d_mass and d_te.
struct DiagnosticsChange {
  double mass = 0.0;
  double total_energy = 0.0;
};

DiagnosticsChange relative_change(const Diagnostics& start, const Diagnostics& now);

/// Sums the diagnostics of a state: rows on the backend, then the rows on the host in a
/// fixed order, so the result is the same for any thread count.
class DiagnosticsReducer {
 public:
  DiagnosticsReducer(Backend backend, int nz) : row_sums_(backend, 2 * static_cast<std::size_t>(nz)) {}

  /// Waits for the stream.
  Diagnostics compute(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                      const CellGeometry& geometry) const;

 private:
  DeviceBuffer<double> row_sums_;
};

}  // namespace simapp
