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

std::size_t halo_fill_bytes(const PassShape& pass, int vars, const BoundaryConditions<2>& sides) {
  if (pass.direction == Direction::x) {  // copied: read + written
    const long copied = (sides.x_low.copies_periodic_image() ? 1 : 0) + (sides.x_high.copies_periodic_image() ? 1 : 0);
    return 2 * values(copied * pass.halo, pass.nz, vars);
  }
  const long walls = (sides.z_low.is_wall() ? 1 : 0) + (sides.z_high.is_wall() ? 1 : 0);
  const long width = pass.nx + 2L * pass.halo;
  return values(width, walls * (pass.halo + 1L), vars);  // an interior row read, halo rows written a side
}

std::size_t inflow_bytes(const PassShape& pass) { return values(pass.halo, pass.nz, 3); }

std::size_t health_check_bytes(int nx, int nz) { return values(nx, nz, var::count); }

std::size_t flux_bytes(const PassShape& pass, FaceRegion region) {
  return face_flux_bytes(pass.along(), pass.across(), pass.halo, var::count, region);
}

std::size_t update_bytes(const PassShape& pass) {
  return tendency_update_bytes(pass.direction, pass.along(), pass.across(), var::count);
}

std::size_t stage_kernel_bytes(const PassShape& pass, const IndexBox& cells, bool low_ghosts_from_memory,
                               bool high_ghosts_from_memory, bool init_is_input) {
  const bool x = pass.direction == Direction::x;
  const long lo = x ? cells.i_lo : cells.k_lo, hi = x ? cells.i_hi : cells.k_hi;
  const long across = x ? cells.height() : cells.width();
  const long read_lo = std::max(lo - pass.halo, low_ghosts_from_memory ? -static_cast<long>(pass.halo) : 0L);
  const long read_hi = std::min(hi + pass.halo, pass.along() + (high_ghosts_from_memory ? pass.halo : 0L));
  const std::size_t own = values(hi - lo, across, var::count);
  return values(read_hi - read_lo, across, var::count) + (init_is_input ? 0 : own) + own;
}

std::size_t pass_kernel_bytes(int nx, int nz) { return 2 * values(nx, nz, var::count); }

std::size_t pass_kernel_3d_bytes(const FieldShape<3>& shape) {
  return 2 * values(shape.nx, shape.ny, ModelVariables<3>::count) * static_cast<std::size_t>(shape.nz);
}

std::size_t health_check_3d_bytes(const FieldShape<3>& shape) {
  return values(shape.nx, shape.ny, shape.num_vars) * static_cast<std::size_t>(shape.nz);
}

std::size_t stage_kernel_3d_bytes(const CellBox& cells, bool init_is_input) {
  const std::size_t count = values(cells.i_hi - cells.i_lo, cells.j_hi - cells.j_lo, ModelVariables<3>::count) *
                            static_cast<std::size_t>(cells.k_hi - cells.k_lo);
  return count * (init_is_input ? 2 : 3);
}

std::size_t fine_bytes(FineOp op, const PassShape& pass, int variable) {
  return fine_kernel_bytes(op, pass.direction, pass.along(), pass.across(), pass.halo, var::count,
                           variable == var::wmom);
}

std::size_t halo_fill_3d_bytes(const PassShape3d& pass, int vars, const BoundaryConditions<3>& sides) {
  const long halo = pass.shape.halo;
  if (pass.direction == Direction::z) {
    const long walls = (sides.z_low.is_wall() ? 1 : 0) + (sides.z_high.is_wall() ? 1 : 0);
    return values(walls * (halo + 1), pass.across(), vars);
  }
  const BoundaryCondition& low = pass.direction == Direction::x ? sides.x_low : sides.y_low;
  const BoundaryCondition& high = pass.direction == Direction::x ? sides.x_high : sides.y_high;
  const long copied = (low.copies_periodic_image() ? 1 : 0) + (high.copies_periodic_image() ? 1 : 0);
  return 2 * values(copied * halo, pass.across(), vars);
}

std::size_t inflow_3d_bytes(const PassShape3d& pass) {
  return values(pass.shape.halo, static_cast<long>(pass.shape.ny) * pass.shape.nz, 3);
}

std::size_t flux_3d_bytes(const PassShape3d& pass, FaceRegion region) {
  return face_flux_bytes(pass.along(), pass.across(), pass.shape.halo, ModelVariables<3>::count, region);
}

std::size_t update_3d_bytes(const PassShape3d& pass) {
  return tendency_update_bytes(pass.direction, pass.along(), pass.across(), ModelVariables<3>::count);
}

std::size_t fine_3d_bytes(FineOp op, const PassShape3d& pass, int variable) {
  return fine_kernel_bytes(op, pass.direction, pass.along(), pass.across(), pass.shape.halo, ModelVariables<3>::count,
                           variable == ModelVariables<3>::wmom);
}

}  // namespace simapp
