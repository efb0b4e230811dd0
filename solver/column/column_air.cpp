#include "solver/column/column_air.hpp"

#include <cmath>

#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"

namespace simapp {

ColumnPoint column_point(const ColumnAir& air, double pressure) {
  using namespace physics;
  ColumnPoint point;
  point.pressure = pressure;
  point.temperature = temperature(air.theta, pressure);
  point.dry_density = pressure / (point.temperature * (rd + air.vapour * rv));
  point.density = point.dry_density * (1.0 + air.vapour + air.cloud);
  point.rho_theta = rho_theta_from_pressure(pressure);
  point.vapour_density = point.dry_density * air.vapour;
  point.cloud_density = point.dry_density * air.cloud;
  return point;
}

}  // namespace simapp
