#include "kernels/flux/fluxes.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"

namespace simapp {

namespace {

/// The four cells around face (i, k) of variable v, in the pass's direction.
struct FaceStencil {
  double q0, q1, q2, q3;
};

SIMAPP_HOST_DEVICE inline FaceStencil face_stencil(const FieldView<const double>& field, bool x_pass, int v, int k,
                                                   int i) {
  if (x_pass) return {field(v, k, i - 2), field(v, k, i - 1), field(v, k, i), field(v, k, i + 1)};
  return {field(v, k - 2, i), field(v, k - 1, i), field(v, k, i), field(v, k + 1, i)};
}

/// F or H at face (i, k) from the face values q and third differences d3 of all variables.
SIMAPP_HOST_DEVICE inline void face_flux(bool x_pass, const double q[var::count], const double d3[var::count], int k,
                                         const FluxContext& context, double flux[var::count]) {
  const CellGeometry& geometry = context.geometry;
  const HydrostaticView& background = context.background;
  const double dt_stage = context.params->dt / context.stage_divisor;
  if (x_pass) {
    x_face_flux(q, d3, background.cell_density(k), background.cell_rho_theta(k),
                hyperviscosity_coefficient(geometry.dx, dt_stage), flux);
  } else {
    const int global_k = geometry.k_offset + k;
    const bool at_wall = global_k == 0 || global_k == geometry.global_nz;
    z_face_flux(q, d3, background.density_face[k], background.rho_theta_face[k], background.pressure_face[k],
                at_wall, hyperviscosity_coefficient(geometry.dz, dt_stage), flux);
  }
}

}  // namespace

void compute_fluxes(const Stream& stream, Direction direction, FieldView<const double> forcing,
                    FieldView<double> flux, VarRange vars, const FluxContext& context, FaceRegion region) {
  const bool x_pass = direction == Direction::x;
  const int n = x_pass ? forcing.shape.nx : forcing.shape.nz;  // cells along the pass
  IndexBox box = face_box(direction, forcing.shape.nx, forcing.shape.nz);
  int& lo = x_pass ? box.i_lo : box.k_lo;
  int& hi = x_pass ? box.i_hi : box.k_hi;
  if (region == FaceRegion::interior) {
    lo = 2;
    hi = n - 1;
  } else if (region == FaceRegion::boundary) {
    lo = 0;
    hi = 4;  // mapped to faces 0, 1, n − 1, n below
  }
  const bool boundary = region == FaceRegion::boundary;
  parallel_for(x_pass ? "compute_fluxes_x" : "compute_fluxes_z", stream, box, SIMAPP_LAMBDA(int i_box, int k_box) {
    const int along = x_pass ? i_box : k_box;
    const int face = boundary && along >= 2 ? n - 3 + along : along;
    const int i = x_pass ? face : i_box;
    const int k = x_pass ? k_box : face;
    double q[var::count], d3[var::count], f[var::count];
    for (int v = 0; v < var::count; ++v) {
      const FaceStencil s = face_stencil(forcing, x_pass, v, k, i);
      q[v] = face_value(s.q0, s.q1, s.q2, s.q3);
      d3[v] = third_difference(s.q0, s.q1, s.q2, s.q3);
    }
    face_flux(x_pass, q, d3, k, context, f);
    for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
  });
}

void reconstruct_faces(const Stream& stream, Direction direction, FieldView<const double> forcing,
                       FieldView<double> face_value_out, FieldView<double> face_d3_out, VarRange vars) {
  const bool x_pass = direction == Direction::x;
  parallel_for(x_pass ? "reconstruct_faces_x" : "reconstruct_faces_z", stream,
               face_box(direction, forcing.shape.nx, forcing.shape.nz), SIMAPP_LAMBDA(int i, int k) {
    for (int v = vars.first; v < vars.last; ++v) {
      const FaceStencil s = face_stencil(forcing, x_pass, v, k, i);
      face_value_out(v, k, i) = face_value(s.q0, s.q1, s.q2, s.q3);
      face_d3_out(v, k, i) = third_difference(s.q0, s.q1, s.q2, s.q3);
    }
  });
}

void compute_fluxes_from_faces(const Stream& stream, Direction direction, FieldView<const double> face_value_in,
                               FieldView<const double> face_d3_in, FieldView<double> flux, VarRange vars,
                               const FluxContext& context) {
  const bool x_pass = direction == Direction::x;
  const IndexBox faces = face_box(direction, flux.shape.nx - 1, flux.shape.nz - 1);
  parallel_for(x_pass ? "compute_fluxes_from_faces_x" : "compute_fluxes_from_faces_z", stream, faces,
               SIMAPP_LAMBDA(int i, int k) {
    double q[var::count], d3[var::count], f[var::count];
    for (int v = 0; v < var::count; ++v) {
      q[v] = face_value_in(v, k, i);
      d3[v] = v >= vars.first && v < vars.last ? face_d3_in(v, k, i) : 0.0;  // flux v needs only d3 of v
    }
    face_flux(x_pass, q, d3, k, context, f);
    for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
  });
}

}  // namespace simapp
