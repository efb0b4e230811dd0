#include "solver/step/kernel_traffic.hpp"

#include <algorithm>

namespace simapp {

namespace {

/// Bytes of `vars` variables on a × b points.
std::size_t values(long a, long b, int vars) {
  return static_cast<std::size_t>(std::max(a, 0L)) * static_cast<std::size_t>(std::max(b, 0L)) *
         static_cast<std::size_t>(vars) * sizeof(double);
}

}  // namespace

std::size_t halo_fill_bytes(const PassShape& pass, int vars, const BoundaryConditions& sides) {
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
  const long n = pass.along();
  long faces = n + 1, cells = n + 2L * pass.halo;
  if (region == FaceRegion::interior) {
    faces = n - 3;
    cells = n;
  } else if (region == FaceRegion::boundary) {
    faces = 4;
    cells = 2 * (2L * pass.halo + 1);
  }
  return values(cells, pass.across(), var::count) + values(faces, pass.across(), var::count);
}

std::size_t update_bytes(const PassShape& pass) {
  const std::size_t interior = values(pass.nx, pass.nz, var::count);
  const std::size_t density = pass.direction == Direction::z ? values(pass.nx, pass.nz, 1) : 0;
  return 2 * interior + values(pass.along() + 1L, pass.across(), var::count) + density;
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

std::size_t health_check_3d_bytes(const FieldShape3d& shape) {
  return values(shape.nx, shape.ny, shape.num_vars) * static_cast<std::size_t>(shape.nz);
}

std::size_t stage_kernel_3d_bytes(const CellBox3d& cells, bool init_is_input) {
  const std::size_t count = values(cells.i_hi - cells.i_lo, cells.j_hi - cells.j_lo, ModelVariables<3>::count) *
                            static_cast<std::size_t>(cells.k_hi - cells.k_lo);
  return count * (init_is_input ? 2 : 3);
}

std::size_t fine_bytes(FineOp op, const PassShape& pass, int variable) {
  const long faces = pass.along() + 1L;
  const std::size_t cells = values(pass.nx, pass.nz, 1);
  switch (op) {
    case FineOp::reconstruct:  // stage input with ghosts read; face value and d3 written
      return values(pass.along() + 2L * pass.halo, pass.across(), 1) + 2 * values(faces, pass.across(), 1);
    case FineOp::flux:  // every variable's face value and this one's d3 read; its flux written
      return values(faces, pass.across(), var::count) + 2 * values(faces, pass.across(), 1);
    case FineOp::tendency:  // its flux (and ρ′ for ρw in z) read; its tendency written
      return values(faces, pass.across(), 1) + cells +
             (pass.direction == Direction::z && variable == var::wmom ? cells : 0);
    case FineOp::update:  // initial state and tendency read; output written
      return 3 * cells;
  }
  return 0;
}

}  // namespace simapp
