#include "kernels/flux/fluxes.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"

namespace simapp {

namespace {

/// The four cells around face (i, k) of variable v, in the pass's direction.
struct FaceStencil {
  double q0, q1, q2, q3;
};

template <Direction D>
SIMAPP_HOST_DEVICE inline FaceStencil face_stencil(const FieldView<const double, 2>& field, int v, int k, int i) {
  if constexpr (D == Direction::x)
    return {field(v, k, i - 2), field(v, k, i - 1), field(v, k, i), field(v, k, i + 1)};
  else
    return {field(v, k - 2, i), field(v, k - 1, i), field(v, k, i), field(v, k + 1, i)};
}

/// The diffusive fluxes at face (i, k) from the two cells of `forcing` either side of it.
template <Direction D>
SIMAPP_HOST_DEVICE inline void add_cell_diffusion(const FieldView<const double, 2>& forcing, int k, int i,
                                                  double face_density_perturbation, const FluxContext<2>& context,
                                                  double flux[var::count]) {
  if (viscosity_over_spacing<D>(context) == 0.0) return;
  double low[var::count], high[var::count];
  for (int v = 0; v < var::count; ++v) {
    low[v] = D == Direction::x ? forcing(v, k, i - 1) : forcing(v, k - 1, i);
    high[v] = forcing(v, k, i);
  }
  add_diffusive_flux<D>(low, high, face_density_perturbation, k, context, flux);
}

template <Direction D>
void launch_fluxes(const Stream& stream, FieldView<const double, 2> forcing, FieldView<double, 2> flux, VarRange vars,
                   const FluxContext<2>& context, FaceRegion region) {
  constexpr bool x_pass = D == Direction::x;
  const int n = x_pass ? forcing.shape.nx : forcing.shape.nz;  // cells along the pass
  IndexBox box = face_box(D, forcing.shape.nx, forcing.shape.nz);
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
  parallel_for(
      x_pass ? "compute_fluxes_x" : "compute_fluxes_z", stream, box, SIMAPP_LAMBDA(int i_box, int k_box) {
        const int along = x_pass ? i_box : k_box;
        const int face = boundary && along >= 2 ? n - 3 + along : along;
        const int i = x_pass ? face : i_box;
        const int k = x_pass ? k_box : face;
        double q[var::count], d3[var::count], f[var::count];
        for (int v = 0; v < var::count; ++v) {
          const FaceStencil s = face_stencil<D>(forcing, v, k, i);
          q[v] = face_value(s.q0, s.q1, s.q2, s.q3);
          d3[v] = third_difference(s.q0, s.q1, s.q2, s.q3);
        }
        flux_at_face<D>(q, d3, k, context, f);
        add_cell_diffusion<D>(forcing, k, i, q[var::dens], context, f);
        for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
      });
}

template <Direction D>
void launch_reconstruction(const Stream& stream, FieldView<const double, 2> forcing,
                           FieldView<double, 2> face_value_out, FieldView<double, 2> face_d3_out, VarRange vars) {
  parallel_for(
      D == Direction::x ? "reconstruct_faces_x" : "reconstruct_faces_z", stream,
      face_box(D, forcing.shape.nx, forcing.shape.nz), SIMAPP_LAMBDA(int i, int k) {
        for (int v = vars.first; v < vars.last; ++v) {
          const FaceStencil s = face_stencil<D>(forcing, v, k, i);
          face_value_out(v, k, i) = face_value(s.q0, s.q1, s.q2, s.q3);
          face_d3_out(v, k, i) = third_difference(s.q0, s.q1, s.q2, s.q3);
        }
      });
}

template <Direction D>
void launch_fluxes_from_faces(const Stream& stream, FieldView<const double, 2> forcing,
                              FieldView<const double, 2> face_value_in, FieldView<const double, 2> face_d3_in,
                              FieldView<double, 2> flux, VarRange vars, const FluxContext<2>& context) {
  const IndexBox faces = face_box(D, flux.shape.nx - 1, flux.shape.nz - 1);
  parallel_for(
      D == Direction::x ? "compute_fluxes_from_faces_x" : "compute_fluxes_from_faces_z", stream, faces,
      SIMAPP_LAMBDA(int i, int k) {
        double q[var::count], d3[var::count], f[var::count];
        for (int v = 0; v < var::count; ++v) {
          q[v] = face_value_in(v, k, i);
          d3[v] = v >= vars.first && v < vars.last ? face_d3_in(v, k, i) : 0.0;  // flux v needs only d3 of v
        }
        flux_at_face<D>(q, d3, k, context, f);
        add_cell_diffusion<D>(forcing, k, i, q[var::dens], context, f);
        for (int v = vars.first; v < vars.last; ++v) flux(v, k, i) = f[v];
      });
}

}  // namespace

void compute_fluxes(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                    FieldView<double, 2> flux, VarRange vars, const FluxContext<2>& context, FaceRegion region) {
  with_direction(direction,
                 [&](auto d) { launch_fluxes<decltype(d)::value>(stream, forcing, flux, vars, context, region); });
}

void reconstruct_faces(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                       FieldView<double, 2> face_value_out, FieldView<double, 2> face_d3_out, VarRange vars) {
  with_direction(direction, [&](auto d) {
    launch_reconstruction<decltype(d)::value>(stream, forcing, face_value_out, face_d3_out, vars);
  });
}

void compute_fluxes_from_faces(const Stream& stream, Direction direction, FieldView<const double, 2> forcing,
                               FieldView<const double, 2> face_value_in, FieldView<const double, 2> face_d3_in,
                               FieldView<double, 2> flux, VarRange vars, const FluxContext<2>& context) {
  with_direction(direction, [&](auto d) {
    launch_fluxes_from_faces<decltype(d)::value>(stream, forcing, face_value_in, face_d3_in, flux, vars, context);
  });
}

}  // namespace simapp
