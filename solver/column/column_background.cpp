#include "solver/column/column_background.hpp"

#include "kernels/physics/constants.hpp"
#include "solver/column/hydrostatic_column.hpp"

namespace simapp {

ColumnBackground column_background(const ColumnSource& source, const CellGeometry<2>& geometry, int nz) {
  constexpr int halo = numerics::halo_width, points = gauss_legendre::num_points;
  const int rows = nz + 2 * halo;
  // Every row's points, then every interface, in one integration from the ground.
  std::vector<double> heights;
  for (int k = -halo; k < nz + halo; ++k)
    for (int q = 0; q < points; ++q)
      heights.push_back(geometry.z_center(k) + (gauss_legendre::point(q) - 0.5) * geometry.dz);
  for (int k = 0; k <= nz; ++k) heights.push_back((geometry.k_offset + k) * geometry.dz);
  const std::vector<ColumnPoint> column = integrate_hydrostatic(source.sounding, 0.0, source.surface_pressure, heights);

  ColumnBackground background;
  background.dry.density_cell.assign(rows, 0.0);
  background.dry.rho_theta_cell.assign(rows, 0.0);
  background.water.vapour_cell.assign(rows, 0.0);
  background.water.cloud_cell.assign(rows, 0.0);
  background.dry.wind_cell.assign(2 * static_cast<std::size_t>(rows), 0.0);
  background.air.resize(rows);
  background.points.resize(rows);
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < points; ++q) {
      const std::size_t n = static_cast<std::size_t>(r) * points + q;
      const ColumnPoint& point = column[n];
      const double w = gauss_legendre::weight(q);
      background.air[r][q] = source.sounding(heights[n], point.pressure);
      background.points[r][q] = point;
      background.dry.density_cell[r] += point.density * w;
      background.dry.rho_theta_cell[r] += point.rho_theta * w;
      background.water.vapour_cell[r] += point.vapour_density * w;
      background.water.cloud_cell[r] += point.cloud_density * w;
      background.dry.wind_cell[r] += point.density * background.air[r][q].u * w;  // ρ̄ū, then / ρ̄
      background.dry.wind_cell[rows + r] += point.density * background.air[r][q].v * w;
    }
  // The cells' wind as the initial state has it where nothing perturbs it: ū = mean(ρu)/mean(ρ).
  for (int r = 0; r < rows; ++r) {
    background.dry.wind_cell[r] /= background.dry.density_cell[r];
    background.dry.wind_cell[rows + r] /= background.dry.density_cell[r];
  }
  for (int k = 0; k <= nz; ++k) {
    const ColumnPoint& point = column[static_cast<std::size_t>(rows) * points + k];
    background.dry.density_face.push_back(point.density);
    background.dry.rho_theta_face.push_back(point.rho_theta);
    background.water.vapour_face.push_back(point.vapour_density);
    background.water.cloud_face.push_back(point.cloud_density);
  }
  return background;
}

}  // namespace simapp
