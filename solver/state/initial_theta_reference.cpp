#include "solver/state/initial_theta_reference.hpp"

#include <string>
#include <vector>

#include "foundation/error.hpp"

#include "kernels/backend/device_runtime.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

InitialThetaReference::InitialThetaReference(Backend backend, const RunSpec& spec, const Grid& grid,
                                             const Decomposition& decomposition)
    : nx_(grid.nx()),
      ny_(grid.is_3d() ? grid.ny() : 1),
      dens_(grid.is_3d() ? ModelVariables<3>::dens : ModelVariables<2>::dens),
      rhot_(grid.is_3d() ? ModelVariables<3>::rhot : ModelVariables<2>::rhot) {
  if (!spec.physics.theta_diffuses_from_initial_state()) return;
  if (decomposition.splits_z())
    throw Error(ExitCode::bad_input, "parallel.ranks",
                std::to_string(decomposition.pz()) +
                    " ranks along z, but physics.diffusion_reference: initial_state needs whole columns on a rank "
                    "(pz = 1)",
                ErrorReach::every_rank);  // the same layout on every rank
  theta_ = DeviceBuffer<double>(backend, static_cast<std::size_t>(nx_) * ny_ * grid.nz());
}

HydrostaticView InitialThetaReference::applied_to(HydrostaticView background) const {
  if (!used()) return background;
  background.initial_theta_departure = theta_.data();
  background.columns_x = nx_;
  background.columns_y = ny_;
  return background;
}

void InitialThetaReference::set(const Stream& stream, std::span<const double> initial_interior,
                                const HydrostaticColumns& columns) const {
  if (!used()) return;
  const std::size_t cells = theta_.size(), row_cells = static_cast<std::size_t>(nx_) * ny_;
  std::vector<double> theta(cells);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const std::size_t row = cell / row_cells + numerics::halo_width;
    const double density = columns.density_cell[row], rho_theta = columns.rho_theta_cell[row];
    theta[cell] =
        (rho_theta + initial_interior[rhot_ * cells + cell]) / (density + initial_interior[dens_ * cells + cell]) -
        rho_theta / density;
  }
  device::copy_async(stream, theta_.data(), theta.data(), cells * sizeof(double),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
}

}  // namespace simapp
