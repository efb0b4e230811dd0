#pragma once
/// A stage's input at any cell a pass's stencil reaches, its ghost cells made by the rules of the
/// domain's sides as they are read (ghost_rules.hpp), for one rank holding the whole grid: the
/// values the fill kernels write there (halo_fill.cpp: the periodic image, then an inflow's rows;
/// a wall's rows from the adjacent row) and the stage kernel's tiles make as they load
/// (StageKernel::input_at). The persistent kernel's stages read the tracers' stencils so
/// (tracer_transport_cell.hpp): no ghost cell of its arrays is ever filled.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// The input of a stage of the pass along D: (v, k, j, i) reads variable v at cell (i, j, k),
/// interior or ghost along D, of type Real (the state's).
template <Direction D, int Dims, class Real>
struct StageInputByRule {
  FieldView<const Real, Dims> input;
  BoundaryConditions<Dims> sides;  ///< the domain's (no side is exchanged)
  HydrostaticView background;
  CellGeometry<Dims> geometry;

  SIMAPP_HOST_DEVICE Real operator()(int v, int k, int j, int i) const {
    using V = ModelVariables<Dims>;
    if constexpr (D == Direction::z) {
      const int nz = input.shape.nz;
      const bool low_wall = k < 0 && sides.z_low.is_wall();
      const bool high_wall = k >= nz && sides.z_high.is_wall();
      if (!low_wall && !high_wall) return input(v, k, j, i);
      const int adjacent = low_wall ? 0 : nz - 1;
      return wall_ghost<V>(v, input(v, adjacent, j, i), background.cell_density(adjacent), background.cell_density(k));
    } else if constexpr (D == Direction::y) {
      return input(v, k, point_read(j, input.shape.ny, sides.y_low, sides.y_high), i);
    } else {
      const int image = point_read(i, input.shape.nx, sides.x_low, sides.x_high);
      const bool inflow_row =
          i < 0 && sides.x_low.has_inflow() && sides.inflow.applies(geometry.z_center(k), geometry.zlen);
      if (!inflow_row || (v != V::umom && v != V::rhot)) return input(v, k, j, image);
      Real q[V::count];  // the inflow rule changes ρu and (ρθ)′ from the image's dry variables
      for (int w = 0; w < V::count; ++w) q[w] = input(w, k, j, image);
      apply_inflow<V>(q, background.cell_density(k), background.cell_rho_theta(k), sides.inflow);
      return q[v];
    }
  }
};

}  // namespace simapp
