#pragma once
/// The global grid as configured (grid.*).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

/// physics.microphysics: the water the state holds and the physics that changes it.
enum class Microphysics {
  none,     ///< a dry atmosphere
  kessler,  ///< vapour, cloud and rain (tracers qv, qc, qr) and warm-rain microphysics
};

inline constexpr std::array<std::pair<Microphysics, std::string_view>, 2> microphysics_names{{
    {Microphysics::none, "none"},
    {Microphysics::kessler, "kessler"},
}};

struct GridSpec {
  int nx = 400;         ///< cells in x
  int nz = 200;         ///< cells in z
  double xlen = 2.0e4;  ///< domain width, m
  double zlen = 1.0e4;  ///< domain height, m
  int ny = 1;           ///< cells in y: 1 is the 2-D (x–z) model, more the 3-D one
  double ylen = 2.0e4;  ///< domain depth, m; load_config makes it xlen when grid.ylen is not given
  /// The tracers the grid's arrays hold after the model's dry variables (physics.tracers), and
  /// what they start as (physics.tracer_init), which also makes their background.
  std::vector<std::string> tracers{};
  TracerInit tracer_init = TracerInit::bump;
  /// The water the state holds (physics.microphysics): with kessler, the tracers qv, qc, qr
  /// (water_tracer_names) before physics.tracers.
  Microphysics microphysics = Microphysics::none;
};

/// The water tracers' names, in the order the state holds them: vapour, cloud, rain.
inline constexpr std::array<std::string_view, 3> water_tracer_names{"qv", "qc", "qr"};

/// The names of the tracers the state of `grid` holds after its dry variables: the water's, then
/// physics.tracers.
std::vector<std::string> state_tracers(const GridSpec& grid);

/// The spacing the horizontal passes' time-step limits see: dx, and in the 3-D model min(dx, dy), m.
inline double horizontal_spacing(const GridSpec& grid) {
  const double dx = grid.xlen / grid.nx;
  return grid.ny > 1 ? std::min(dx, grid.ylen / grid.ny) : dx;
}

/// The grid's cells, nx · ny · nz.
inline std::int64_t cell_count(const GridSpec& grid) { return std::int64_t{grid.nx} * grid.ny * grid.nz; }

/// "400 x 200", or in the 3-D model "48 x 24 x 10" (x, y, z).
std::string cells_text(const GridSpec& grid);

/// The most cells along x or z: the cells plus the halo on both sides are indexed with an int.
inline constexpr int max_cells_per_direction = std::numeric_limits<int>::max() - 2 * numerics::halo_width;

/// The most cells of a grid, nx · ny · nz ≤ 2^40: far beyond any machine's memory (the state
/// alone would be 32 TiB) while every cell index stays exact in a double.
inline constexpr std::int64_t max_grid_cells = std::int64_t{1} << 40;

}  // namespace simapp
