#include "solver/step/kernel_traffic.hpp"

#include <algorithm>

namespace simapp {

namespace {

/// Bytes of `vars` variables on a × b points.
std::size_t values(long a, long b, int vars) {
  return static_cast<std::size_t>(std::max(a, 0L)) * static_cast<std::size_t>(std::max(b, 0L)) *
         static_cast<std::size_t>(vars) * sizeof(double);
}

/// Face fluxes of `vars` variables on the faces of `region` of `across` lines of `along` cells:
/// the cells they read (ghosts included) and the faces they write.
std::size_t face_flux_bytes(long along, long across, long halo, int vars, FaceRegion region) {
  long faces = along + 1, cells = along + 2 * halo;
  if (region == FaceRegion::interior) {
    faces = along - 3;
    cells = along;
  } else if (region == FaceRegion::boundary) {
    faces = 4;
    cells = 2 * (2 * halo + 1);
  }
  return values(cells, across, vars) + values(faces, across, vars);
}

/// The fused tendency + update: initial state and fluxes (and ρ′ in z) read, output written.
std::size_t tendency_update_bytes(Direction direction, long along, long across, int vars) {
  const std::size_t interior = values(along, across, vars);
  const std::size_t density = direction == Direction::z ? values(along, across, 1) : 0;
  return 2 * interior + values(along + 1, across, vars) + density;
}

/// One fine kernel of one variable (`vertical_momentum`: ρw, which reads ρ′ in the z pass).
std::size_t fine_kernel_bytes(FineOp op, Direction direction, long along, long across, long halo, int vars,
                              bool vertical_momentum) {
  const std::size_t cells = values(along, across, 1), faces = values(along + 1, across, 1);
  switch (op) {
    case FineOp::reconstruct:  // stage input with ghosts read; face value and d3 written
      return values(along + 2 * halo, across, 1) + 2 * faces;
    case FineOp::flux:  // every variable's face value and this one's d3 read; its flux written
      return values(along + 1, across, vars) + 2 * faces;
    case FineOp::tendency:  // its flux (and ρ′ for ρw in z) read; its tendency written
      return faces + cells + (direction == Direction::z && vertical_momentum ? cells : 0);
    case FineOp::update:  // initial state and tendency read; output written
      return 3 * cells;
  }
  return 0;
}

}  // namespace

template <int Dims>
std::size_t halo_fill_bytes(const PassShape<Dims>& pass, int vars, const BoundaryConditions<Dims>& sides) {
  const long halo = pass.shape.halo;
  if (pass.direction == Direction::z) {
    const long walls = (sides.z_low.is_wall() ? 1 : 0) + (sides.z_high.is_wall() ? 1 : 0);
    if constexpr (Dims == 2) {  // the rows span the ghost columns
      const long width = pass.shape.nx + 2L * halo;
      return values(width, walls * (halo + 1L), vars);
    } else {
      return values(walls * (halo + 1), pass.across(), vars);
    }
  }
  const BoundaryCondition* low = &sides.x_low;
  const BoundaryCondition* high = &sides.x_high;
  if constexpr (Dims == 3)
    if (pass.direction == Direction::y) {
      low = &sides.y_low;
      high = &sides.y_high;
    }
  const long copied = (low->copies_periodic_image() ? 1 : 0) + (high->copies_periodic_image() ? 1 : 0);
  return 2 * values(copied * halo, pass.across(), vars);  // copied: read + written
}

template <int Dims>
std::size_t inflow_bytes(const PassShape<Dims>& pass) {
  return values(pass.shape.halo, static_cast<long>(pass.shape.ny) * pass.shape.nz, 3);
}

template <int Dims>
std::size_t flux_bytes(const PassShape<Dims>& pass, FaceRegion region) {
  return face_flux_bytes(pass.along(), pass.across(), pass.shape.halo, ModelVariables<Dims>::count, region);
}

template <int Dims>
std::size_t update_bytes(const PassShape<Dims>& pass) {
  return tendency_update_bytes(pass.direction, pass.along(), pass.across(), ModelVariables<Dims>::count);
}

template <int Dims>
std::size_t stage_kernel_bytes(const PassShape<Dims>& pass, const CellBox& cells, bool low_ghosts_from_memory,
                               bool high_ghosts_from_memory, bool init_is_input) {
  constexpr int vars = ModelVariables<Dims>::count;
  if constexpr (Dims == 3) {
    const std::size_t count = values(cells.i_hi - cells.i_lo, cells.j_hi - cells.j_lo, vars) *
                              static_cast<std::size_t>(cells.k_hi - cells.k_lo);
    return count * (init_is_input ? 2 : 3);
  } else {
    const bool x = pass.direction == Direction::x;
    const long halo = pass.shape.halo;
    const long lo = x ? cells.i_lo : cells.k_lo, hi = x ? cells.i_hi : cells.k_hi;
    const long across = x ? cells.k_hi - cells.k_lo : cells.i_hi - cells.i_lo;
    const long read_lo = std::max(lo - halo, low_ghosts_from_memory ? -halo : 0L);
    const long read_hi = std::min(hi + halo, pass.along() + (high_ghosts_from_memory ? halo : 0L));
    const std::size_t own = values(hi - lo, across, vars);
    return values(read_hi - read_lo, across, vars) + (init_is_input ? 0 : own) + own;
  }
}

template <int Dims>
std::size_t pass_kernel_bytes(const FieldShape<Dims>& shape) {
  return 2 * values(shape.nx, shape.ny, shape.num_vars) * static_cast<std::size_t>(shape.nz);
}

template <int Dims>
std::size_t health_check_bytes(const FieldShape<Dims>& shape) {
  return values(shape.nx, shape.ny, shape.num_vars) * static_cast<std::size_t>(shape.nz);
}

template <int Dims>
std::size_t microphysics_bytes(const FieldShape<Dims>& shape, std::size_t state_value_bytes) {
  constexpr int water = 3, state = ModelVariables<Dims>::count + water;
  constexpr int state_values = water + (2 + water) + 2 * state, scratch_values = 7 + (6 + 4) + 7;
  const std::size_t cells = static_cast<std::size_t>(shape.nx) * shape.ny * shape.nz;
  return cells * (state_values * state_value_bytes + scratch_values * sizeof(double));
}

template <int Dims>
std::size_t fine_bytes(FineOp op, const PassShape<Dims>& pass, int variable) {
  return fine_kernel_bytes(op, pass.direction, pass.along(), pass.across(), pass.shape.halo,
                           ModelVariables<Dims>::count, variable == ModelVariables<Dims>::wmom);
}

template std::size_t halo_fill_bytes<2>(const PassShape<2>&, int, const BoundaryConditions<2>&);
template std::size_t inflow_bytes<2>(const PassShape<2>&);
template std::size_t flux_bytes<2>(const PassShape<2>&, FaceRegion);
template std::size_t update_bytes<2>(const PassShape<2>&);
template std::size_t stage_kernel_bytes<2>(const PassShape<2>&, const CellBox&, bool, bool, bool);
template std::size_t pass_kernel_bytes<2>(const FieldShape<2>&);
template std::size_t health_check_bytes<2>(const FieldShape<2>&);
template std::size_t microphysics_bytes<2>(const FieldShape<2>&, std::size_t);
template std::size_t fine_bytes<2>(FineOp, const PassShape<2>&, int);
template std::size_t halo_fill_bytes<3>(const PassShape<3>&, int, const BoundaryConditions<3>&);
template std::size_t inflow_bytes<3>(const PassShape<3>&);
template std::size_t flux_bytes<3>(const PassShape<3>&, FaceRegion);
template std::size_t update_bytes<3>(const PassShape<3>&);
template std::size_t stage_kernel_bytes<3>(const PassShape<3>&, const CellBox&, bool, bool, bool);
template std::size_t pass_kernel_bytes<3>(const FieldShape<3>&);
template std::size_t health_check_bytes<3>(const FieldShape<3>&);
template std::size_t microphysics_bytes<3>(const FieldShape<3>&, std::size_t);
template std::size_t fine_bytes<3>(FineOp, const PassShape<3>&, int);

}  // namespace simapp
