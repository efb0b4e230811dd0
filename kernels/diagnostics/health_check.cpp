#include "kernels/diagnostics/health_check.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/diagnostics/cell_health.hpp"

namespace simapp {

template <class Real, int Dims>
void check_health(const Stream& stream, FieldOf<const Real, Dims> state, HydrostaticView background,
                  const CellGeometry<Dims>& geometry, HealthRecord* record) {
  const int nx = state.shape.nx, nz = state.shape.nz;
  if constexpr (Dims == 3) {
    // One thread a cell: rows (k, j) of the (i, kj) index box, kj = k·ny + j.
    const int ny = state.shape.ny;
    parallel_for(
        "check_health", stream, IndexBox{0, nx, 0, nz * ny},
        SIMAPP_LAMBDA(int i, int kj) { check_cell_health(state, background, geometry, record, kj / ny, kj % ny, i); });
  } else {
    parallel_for(
        "check_health", stream, IndexBox{0, nx, 0, nz},
        SIMAPP_LAMBDA(int i, int k) { check_cell_health(state, background, geometry, record, k, 0, i); });
  }
}

template void check_health<double, 2>(const Stream&, FieldOf<const double, 2>, HydrostaticView, const CellGeometry<2>&,
                                      HealthRecord*);
template void check_health<double, 3>(const Stream&, FieldOf<const double, 3>, HydrostaticView, const CellGeometry<3>&,
                                      HealthRecord*);
template void check_health<float, 2>(const Stream&, FieldOf<const float, 2>, HydrostaticView, const CellGeometry<2>&,
                                     HealthRecord*);
template void check_health<float, 3>(const Stream&, FieldOf<const float, 3>, HydrostaticView, const CellGeometry<3>&,
                                     HealthRecord*);

void count_health_check(const Stream& stream, HealthRecord* record, HealthRecord* mirror) {
  parallel_for(
      "count_health_check", stream, IndexBox{0, 1, 0, 1}, SIMAPP_LAMBDA(int, int) {
        record->checks_run += 1;
        *mirror = *record;
      });
}

}  // namespace simapp
