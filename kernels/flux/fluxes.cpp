#include "kernels/flux/fluxes.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/flux/face_flux.hpp"
#include "kernels/reconstruction/fourth_order.hpp"

namespace simapp {
namespace {

/// Cell (i, j, k) moved by `n` cells along the pass.
template <Direction D, class Real, int Dims>
SIMAPP_HOST_DEVICE inline Real along(const FieldView<const Real, Dims>& field, int v, int k, int j, int i, int n) {
  if constexpr (D == Direction::x)
    return field(v, k, j, i + n);
  else if constexpr (D == Direction::y)
    return field(v, k, j + n, i);
  else
    return field(v, k + n, j, i);
}

/// q_f and d3 of variable v at face (i, j, k) of the pass, from its four cells along the pass.
template <Direction D, class Real, int Dims>
SIMAPP_HOST_DEVICE inline void reconstruct_at(const FieldView<const Real, Dims>& forcing, int v, int k, int j, int i,
                                              Real& q, Real& d3) {
  const Real s0 = along<D>(forcing, v, k, j, i, -2), s1 = along<D>(forcing, v, k, j, i, -1);
  const Real s2 = along<D>(forcing, v, k, j, i, 0), s3 = along<D>(forcing, v, k, j, i, 1);
  q = face_value(s0, s1, s2, s3);
  d3 = third_difference(s0, s1, s2, s3);
}

/// The flux of every variable at face (i, j, k) from its face values and third differences.
template <Direction D, class Real, int Dims>
SIMAPP_HOST_DEVICE inline void flux_at(const FieldView<const Real, Dims>& forcing,
                                       const Real q[ModelVariables<Dims>::count],
                                       const Real d3[ModelVariables<Dims>::count], int k, int j, int i,
                                       const FluxContext<Dims>& context, Real f[ModelVariables<Dims>::count]) {
  using V = ModelVariables<Dims>;
  face_flux<D>(
      q, d3, k, context,
      [&](Real low[V::count], Real high[V::count]) {
        for (int v = 0; v < V::count; ++v) {
          low[v] = along<D>(forcing, v, k, j, i, -1);
          high[v] = forcing(v, k, j, i);
        }
        return ColumnIndex{i, j};
      },
      f);
}

/// The faces of `region` along the pass: lo, hi of the index along it (boundary: 0 … 3, mapped
/// to faces 0, 1, n − 1 and n in the kernel).
template <Direction D, int Dims>
CellBox region_faces(const FieldShape<Dims>& cells, FaceRegion region) {
  CellBox box = face_box(D, cells);
  int& lo = D == Direction::x ? box.i_lo : D == Direction::y ? box.j_lo : box.k_lo;
  int& hi = D == Direction::x ? box.i_hi : D == Direction::y ? box.j_hi : box.k_hi;
  if (region == FaceRegion::interior) {
    lo = 2;
    hi -= 2;  // faces [2, n − 1) of n + 1
  } else if (region == FaceRegion::boundary) {
    lo = 0;
    hi = 4;
  }
  return box;
}

template <Direction D, class Real, int Dims>
void launch_fluxes(const Stream& stream, FieldView<const Real, Dims> forcing, FieldView<Real, Dims> flux, VarRange vars,
                   const FluxContext<Dims>& context, FaceRegion region) {
  using V = ModelVariables<Dims>;
  const int n = D == Direction::x ? forcing.shape.nx : D == Direction::y ? forcing.shape.ny : forcing.shape.nz;
  const bool boundary = region == FaceRegion::boundary;
  parallel_for_cells<Dims>(
      direction_label<D>("compute_fluxes_x", "compute_fluxes_y", "compute_fluxes_z"), stream,
      region_faces<D>(forcing.shape, region), SIMAPP_LAMBDA(int i, int j, int k) {
        if (boundary) {  // index 0 … 3 along the pass: faces 0, 1, n − 1, n
          int& face = D == Direction::x ? i : D == Direction::y ? j : k;
          if (face >= 2) face += n - 3;
        }
        Real q[V::count], d3[V::count], f[V::count];
        for (int v = 0; v < V::count; ++v) reconstruct_at<D>(forcing, v, k, j, i, q[v], d3[v]);
        flux_at<D>(forcing, q, d3, k, j, i, context, f);
        for (int v = vars.first; v < vars.last; ++v) flux(v, k, j, i) = f[v];
      });
}

template <Direction D, class Real, int Dims>
void launch_reconstruction(const Stream& stream, FieldView<const Real, Dims> forcing,
                           FieldView<Real, Dims> face_value_out, FieldView<Real, Dims> face_d3_out, VarRange vars) {
  parallel_for_cells<Dims>(
      direction_label<D>("reconstruct_faces_x", "reconstruct_faces_y", "reconstruct_faces_z"), stream,
      face_box(D, forcing.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        for (int v = vars.first; v < vars.last; ++v)
          reconstruct_at<D>(forcing, v, k, j, i, face_value_out(v, k, j, i), face_d3_out(v, k, j, i));
      });
}

template <Direction D, class Real, int Dims>
void launch_fluxes_from_faces(const Stream& stream, FieldView<const Real, Dims> forcing,
                              FieldView<const Real, Dims> face_value_in, FieldView<const Real, Dims> face_d3_in,
                              FieldView<Real, Dims> flux, VarRange vars, const FluxContext<Dims>& context) {
  using V = ModelVariables<Dims>;
  parallel_for_cells<Dims>(
      direction_label<D>("compute_fluxes_from_faces_x", "compute_fluxes_from_faces_y", "compute_fluxes_from_faces_z"),
      stream, face_box(D, forcing.shape), SIMAPP_LAMBDA(int i, int j, int k) {
        Real q[V::count], d3[V::count], f[V::count];
        for (int v = 0; v < V::count; ++v) {
          q[v] = face_value_in(v, k, j, i);
          d3[v] = v >= vars.first && v < vars.last ? face_d3_in(v, k, j, i) : Real(0);  // flux v needs only d3 of v
        }
        flux_at<D>(forcing, q, d3, k, j, i, context, f);
        for (int v = vars.first; v < vars.last; ++v) flux(v, k, j, i) = f[v];
      });
}

}  // namespace

template <class Real, int Dims>
void compute_fluxes(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                    FieldView<Real, Dims> flux, VarRange vars, const FluxContext<Dims>& context, FaceRegion region) {
  with_direction_of<Dims>(
      direction, [&](auto d) { launch_fluxes<decltype(d)::value>(stream, forcing, flux, vars, context, region); });
}

template <class Real, int Dims>
void reconstruct_faces(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                       FieldView<Real, Dims> face_value_out, FieldOf<Real, Dims> face_d3_out, VarRange vars) {
  with_direction_of<Dims>(direction, [&](auto d) {
    launch_reconstruction<decltype(d)::value>(stream, forcing, face_value_out, face_d3_out, vars);
  });
}

template <class Real, int Dims>
void compute_fluxes_from_faces(const Stream& stream, Direction direction, FieldOf<const Real, Dims> forcing,
                               FieldOf<const Real, Dims> face_value_in, FieldOf<const Real, Dims> face_d3_in,
                               FieldView<Real, Dims> flux, VarRange vars, const FluxContext<Dims>& context) {
  with_direction_of<Dims>(direction, [&](auto d) {
    launch_fluxes_from_faces<decltype(d)::value>(stream, forcing, face_value_in, face_d3_in, flux, vars, context);
  });
}

#define SIMAPP_FLUXES_OF(Real, Dims)                                                                                   \
  template void compute_fluxes<Real, Dims>(const Stream&, Direction, FieldOf<const Real, Dims>, FieldView<Real, Dims>, \
                                           VarRange, const FluxContext<Dims>&, FaceRegion);                            \
  template void reconstruct_faces<Real, Dims>(const Stream&, Direction, FieldOf<const Real, Dims>,                     \
                                              FieldView<Real, Dims>, FieldOf<Real, Dims>, VarRange);                   \
  template void compute_fluxes_from_faces<Real, Dims>(const Stream&, Direction, FieldOf<const Real, Dims>,             \
                                                      FieldOf<const Real, Dims>, FieldOf<const Real, Dims>,            \
                                                      FieldView<Real, Dims>, VarRange, const FluxContext<Dims>&);
SIMAPP_FLUXES_OF(double, 2)
SIMAPP_FLUXES_OF(double, 3)
SIMAPP_FLUXES_OF(float, 2)
SIMAPP_FLUXES_OF(float, 3)
#undef SIMAPP_FLUXES_OF

}  // namespace simapp
