#include "kernels/diagnostics/health_check.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/diagnostics/cell_health.hpp"

namespace simapp {

void check_health(const Stream& stream, FieldView<const double, 2> state, HydrostaticView background,
                  const CellGeometry<2>& geometry, HealthRecord* record) {
  parallel_for(
      "check_health", stream, IndexBox{0, state.shape.nx, 0, state.shape.nz},
      SIMAPP_LAMBDA(int i, int k) { check_cell_health(state, background, geometry, record, k, i); });
}

void check_health_3d(const Stream& stream, FieldView<const double, 3> state, HydrostaticView background,
                     const CellGeometry<3>& geometry, HealthRecord* record) {
  // One thread a cell: rows (k, j) of the (i, kj) index box, kj = k·ny + j.
  const int ny = state.shape.ny;
  parallel_for(
      "check_health_3d", stream, IndexBox{0, state.shape.nx, 0, state.shape.nz * ny},
      SIMAPP_LAMBDA(int i, int kj) { check_cell_health_3d(state, background, geometry, record, kj / ny, kj % ny, i); });
}

void count_health_check(const Stream& stream, HealthRecord* record, HealthRecord* mirror) {
  parallel_for(
      "count_health_check", stream, IndexBox{0, 1, 0, 1}, SIMAPP_LAMBDA(int, int) {
        record->checks_run += 1;
        *mirror = *record;
      });
}

}  // namespace simapp
