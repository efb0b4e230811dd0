#pragma once
/// The boundary conditions of the four sides of the domain (docs/model.md, "Boundaries"), and
/// of a rank's four sides: the domain's, with the sides that face a neighbour rank marked as
/// exchanged (their ghost cells come from that rank's halo message). The step description, the
/// fill kernels and the stage kernels receive these values and make the ghost cells they name.
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// An inflow through a side: the ghost cells of rows with |z − centre · zlen| ≤ half_width · zlen
/// carry  ρu = ρ · u,  (ρθ)′ = ρ · θ − ρ̄θ̄_c,  ρ the ghost cell's total density. Both heights are
/// products: a division here, in the stage kernel's edge-tile path, cost the whole x pass 3–5 %
/// (docs/performance/journal/2026-12-02-step-as-data.md).
struct InflowProfile {
  double u = 0.0;           ///< m s⁻¹
  double theta = 0.0;       ///< K
  double centre = 0.0;      ///< height of the rows' middle, a fraction of zlen
  double half_width = 0.0;  ///< the rows reach half_width · zlen either side of it

  /// Whether a row centred at height z of a domain zlen high is an inflow row.
  SIMAPP_HOST_DEVICE bool applies(double z, double zlen) const {
    const double offset = z - centre * zlen;
    return (offset < 0 ? -offset : offset) <= half_width * zlen;
  }
};

/// What makes the ghost cells of a side.
enum class BoundaryKind : unsigned char {
  periodic,          ///< the interior cells at the opposite side of the domain, held by this rank
  wall,              ///< a free-slip wall: from the adjacent interior row (wall_ghost)
  inflow,            ///< periodic, then the profile's rows carry the inflow (apply_inflow)
  exchanged,         ///< a rank's side: received from the neighbour rank on that side
  exchanged_inflow,  ///< a rank's inflow side: received from the neighbour rank, then the profile's rows
};

/// The condition of one side (an inflow side's profile is the domain's, BoundaryConditions::inflow).
struct BoundaryCondition {
  BoundaryKind kind = BoundaryKind::periodic;

  /// The ghost cells are copies of the periodic image on this rank.
  SIMAPP_HOST_DEVICE constexpr bool copies_periodic_image() const {
    return kind == BoundaryKind::periodic || kind == BoundaryKind::inflow;
  }
  /// The ghost cells (before any inflow) are what the neighbour rank sent.
  SIMAPP_HOST_DEVICE constexpr bool from_neighbour() const {
    return kind == BoundaryKind::exchanged || kind == BoundaryKind::exchanged_inflow;
  }
  SIMAPP_HOST_DEVICE constexpr bool is_wall() const { return kind == BoundaryKind::wall; }
  SIMAPP_HOST_DEVICE constexpr bool has_inflow() const {
    return kind == BoundaryKind::inflow || kind == BoundaryKind::exchanged_inflow;
  }
};

/// The side as a rank that faces a neighbour rank there sees it: ghost cells received, and an
/// inflow's rows still made after they arrive.
SIMAPP_HOST_DEVICE constexpr BoundaryCondition as_exchanged(const BoundaryCondition& side) {
  return {side.has_inflow() ? BoundaryKind::exchanged_inflow : BoundaryKind::exchanged};
}

enum class Side { low, high };

/// The conditions of the four sides: left, right, bottom, top, and the profile of the sides of
/// an inflow kind. One profile for the domain keeps the value small: the stage kernels receive
/// it with every launch (docs/performance/journal/2026-12-02-step-as-data.md).
template <int Dims>
struct BoundaryConditions;

template <>
struct BoundaryConditions<2> {
  BoundaryCondition x_low, x_high, z_low, z_high;
  InflowProfile inflow;  ///< the inflow sides' profile and the rows it applies to

  /// The `side` side of the passes along `direction`.
  SIMAPP_HOST_DEVICE constexpr const BoundaryCondition& side(Direction direction, Side side) const {
    if (direction == Direction::x) return side == Side::low ? x_low : x_high;
    return side == Side::low ? z_low : z_high;
  }
};

/// The six sides of a 3-D domain (or of a rank's box): the x and z sides as in the 2-D model, and
/// the y sides (periodic, or exchanged with a neighbour rank).
template <>
struct BoundaryConditions<3> : BoundaryConditions<2> {
  BoundaryCondition y_low, y_high;

  /// The x and z sides alone.
  SIMAPP_HOST_DEVICE constexpr const BoundaryConditions<2>& xz() const { return *this; }
};

/// The 3-D domain of a case whose x–z sides are `xz`: y periodic.
SIMAPP_HOST_DEVICE constexpr BoundaryConditions<3> periodic_in_y(const BoundaryConditions<2>& xz) {
  return {xz, {BoundaryKind::periodic}, {BoundaryKind::periodic}};
}

}  // namespace simapp
