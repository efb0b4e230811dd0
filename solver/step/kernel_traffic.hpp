#pragma once
/// The bytes each kernel of a stage must move: every value it reads and every value it
/// writes, once (8 bytes a value). The profile report (--profile) sets these against the time
/// each kernel takes; a stage of the stage granularity at its floor moves 96 bytes a cell
/// (input, initial state and output, 4 variables each), 576 a step.
#include <cstddef>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/index_box.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// A split pass over a rank's nx × nz interior cells with `halo` ghost cells a side.
struct PassShape {
  Direction direction = Direction::x;
  int nx = 0, nz = 0, halo = 0;

  int along() const { return direction == Direction::x ? nx : nz; }   ///< cells along the pass
  int across() const { return direction == Direction::x ? nz : nx; }  ///< cells across it
};

/// Ghost cells of `vars` variables the rank fills on the sides of `sides` that say so:
/// periodic columns (x) or wall rows (z).
std::size_t halo_fill_bytes(const PassShape& pass, int vars, const BoundaryConditions<2>& sides);
/// An inflow: ρ′ read, ρu and (ρθ)′ written in the left ghost columns.
std::size_t inflow_bytes(const PassShape& pass);
/// Face fluxes of `vars` variables from the stage input (fused), on the faces of `region`.
std::size_t flux_bytes(const PassShape& pass, FaceRegion region);
/// The fused tendency + update: initial state, fluxes (and ρ′ in z) read, output written.
std::size_t update_bytes(const PassShape& pass);
/// The stage kernel on `cells`: the stage input with the ghost cells it reads from memory,
/// the initial state unless it is the input, the output.
std::size_t stage_kernel_bytes(const PassShape& pass, const IndexBox& cells, bool low_ghosts_from_memory,
                               bool high_ghosts_from_memory, bool init_is_input);
/// The pass kernel on nx × nz cells: qⁿ read and qⁿ⁺¹ written, four variables a cell (64 B).
std::size_t pass_kernel_bytes(int nx, int nz);

/// A split pass of the 3-D model over a rank's cells of `shape` (nx × ny × nz, halo a side).
struct PassShape3d {
  Direction direction = Direction::x;
  FieldShape<3> shape;

  long along() const {  ///< cells along the pass
    return direction == Direction::x ? shape.nx : direction == Direction::y ? shape.ny : shape.nz;
  }
  long across() const {  ///< lines of cells along the pass
    const long nx = shape.nx, ny = shape.ny, nz = shape.nz;
    return direction == Direction::x ? ny * nz : direction == Direction::y ? nx * nz : nx * ny;
  }
};

/// The 3-D ghost cells of `vars` variables the rank fills along the pass: periodic copies in x
/// and y (read + written), wall layers in z (the interior layer read, the ghost layers written).
std::size_t halo_fill_3d_bytes(const PassShape3d& pass, int vars, const BoundaryConditions<3>& sides);
/// The 3-D inflow: ρ′ read, ρu and (ρθ)′ written in the low x ghost columns.
std::size_t inflow_3d_bytes(const PassShape3d& pass);
/// The 3-D face fluxes of every variable from the stage input (fused), on the faces of `region`.
std::size_t flux_3d_bytes(const PassShape3d& pass, FaceRegion region);
/// The 3-D fused tendency + update: initial state, fluxes (and ρ′ in z) read, output written.
std::size_t update_3d_bytes(const PassShape3d& pass);

/// The 3-D model's stage kernel over `cells` on one rank (ghost cells made by rule, not read):
/// its input read and output written, five variables a cell, and the step's initial state read
/// unless it is the input: 80 or 120 B a cell.
std::size_t stage_kernel_3d_bytes(const CellBox& cells, bool init_is_input);

/// The 3-D model's pass kernel on one rank's cells of `shape`: qⁿ read and qⁿ⁺¹ written, five
/// variables a cell (80 B; the tiles' margins, read again by the neighbouring tile, are left to
/// the cache).
std::size_t pass_kernel_3d_bytes(const FieldShape<3>& shape);

/// The 3-D model's health check: every variable of the interior cells read.
std::size_t health_check_3d_bytes(const FieldShape<3>& shape);

/// The health check: every variable of the nx × nz interior cells read.
std::size_t health_check_bytes(int nx, int nz);

/// The fine granularity's kernels of one variable.
enum class FineOp { reconstruct, flux, tendency, update };
std::size_t fine_bytes(FineOp op, const PassShape& pass, int variable);
/// The fine granularity's kernels of one variable of the 3-D model.
std::size_t fine_3d_bytes(FineOp op, const PassShape3d& pass, int variable);

}  // namespace simapp
