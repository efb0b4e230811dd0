#pragma once
/// The bytes each kernel of a stage must move: every value it reads and every value it
/// writes, once (8 bytes a value). The profile report (--profile) sets these against the time
/// each kernel takes; a stage of the stage granularity at its floor moves 96 bytes a cell
/// (input, initial state and output, 4 variables each), 576 a step.
#include <cstddef>

#include "kernels/backend/field_view.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// A split pass over a rank's cells of `shape` (nx × ny × nz, ny = 1 in 2-D; halo a side).
template <int Dims>
struct PassShape {
  Direction direction = Direction::x;
  FieldShape<Dims> shape;

  long along() const {  ///< cells along the pass
    return direction == Direction::x ? shape.nx : direction == Direction::y ? shape.ny : shape.nz;
  }
  long across() const {  ///< lines of cells along the pass
    const long nx = shape.nx, ny = shape.ny, nz = shape.nz;
    return direction == Direction::x ? ny * nz : direction == Direction::y ? nx * nz : nx * ny;
  }
};

/// Ghost cells of `vars` variables the rank fills on the sides of `sides` that say so: periodic
/// copies in x and y (read + written), wall layers in z (an interior layer read, the ghost
/// layers written; in 2-D the wall rows span the ghost columns too).
template <int Dims>
std::size_t halo_fill_bytes(const PassShape<Dims>& pass, int vars, const BoundaryConditions<Dims>& sides);
/// An inflow: ρ′ read, ρu and (ρθ)′ written in the low x ghost columns.
template <int Dims>
std::size_t inflow_bytes(const PassShape<Dims>& pass);
/// Face fluxes of every variable from the stage input (fused), on the faces of `region`.
template <int Dims>
std::size_t flux_bytes(const PassShape<Dims>& pass, FaceRegion region);
/// The fused tendency + update: initial state, fluxes (and ρ′ in z) read, output written.
template <int Dims>
std::size_t update_bytes(const PassShape<Dims>& pass);
/// The stage kernel on `cells`: the stage input, the initial state unless it is the input, the
/// output. In 2-D the input is counted with the ghost cells it reads from memory (those of the
/// sides whose ghosts come from memory); the 3-D kernel's count is its cells alone (80 or
/// 120 B a cell).
template <int Dims>
std::size_t stage_kernel_bytes(const PassShape<Dims>& pass, const CellBox& cells, bool low_ghosts_from_memory,
                               bool high_ghosts_from_memory, bool init_is_input);
/// The pass kernel on the cells of `shape`: qⁿ read and qⁿ⁺¹ written, every variable, the
/// tracers included (the tiles' margins, read again by the neighbouring tile, are left to the cache).
template <int Dims>
std::size_t pass_kernel_bytes(const FieldShape<Dims>& shape);
/// The health check: every variable of the interior cells read.
template <int Dims>
std::size_t health_check_bytes(const FieldShape<Dims>& shape);
/// The microphysics at one sub-step of rain, per interior cell: the water read for the hole
/// filling; ρ′, (ρθ)′ and the water read, 7 scratch values written (step 1); the routine's 6
/// scratch values read and 4 written; 7 scratch values, the water, ρ′, (ρθ)′ and the momenta read
/// and the same state values written (step 4). The state's values are `state_value_bytes` each (4
/// in a float32 run), the scratch values doubles (the microphysics computes in double).
template <int Dims>
std::size_t microphysics_bytes(const FieldShape<Dims>& shape, std::size_t state_value_bytes);

/// The fine granularity's kernels of one variable.
enum class FineOp { reconstruct, flux, tendency, update };
template <int Dims>
std::size_t fine_bytes(FineOp op, const PassShape<Dims>& pass, int variable);

}  // namespace simapp
