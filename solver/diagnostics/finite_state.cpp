#include "solver/diagnostics/finite_state.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "solver/diagnostics/global_cell.hpp"
#include "solver/grid/state_variables.hpp"

namespace simapp {

namespace {

constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();

/// Whether every value is finite: a branch-free test of the exponent bits (all ones for Inf
/// and NaN) that the compiler vectorises, so the common case costs one pass at memory speed.
bool all_finite(std::span<const double> values) {
  constexpr std::uint64_t exponent = 0x7ff0000000000000ULL;
  std::uint64_t non_finite = 0;
  for (const double value : values) non_finite |= (std::bit_cast<std::uint64_t>(value) & exponent) == exponent;
  return non_finite == 0;
}

/// The global index (variable, row, column) of this rank's first non-finite value; `none`.
std::int64_t first_non_finite(std::span<const double> interior, const RankBox& box, const GridSpec& global) {
  if (all_finite(interior)) return none;
  const int variables = state_variables(global).size();
  std::size_t n = 0;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j)
        for (int i = 0; i < box.nx; ++i, ++n)
          if (!std::isfinite(interior[n]))
            return GlobalCell{v, box.i_offset + i, box.k_offset + k, box.j_offset + j}.code(global.nx, global.nz,
                                                                                            global.ny);
  return none;
}

}  // namespace

void require_finite_state(std::span<const double> interior, const Decomposition& decomposition, long step,
                          double time) {
  const GridSpec& global = decomposition.global();
  // The smallest global index over the ranks: the same cell whatever the decomposition.
  std::int64_t first = first_non_finite(interior, decomposition.box(), global);
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, decomposition.comm());
  if (first == none) return;
  const GlobalCell cell = GlobalCell::of_code(first, global.nx, global.nz, global.ny);
  throw Error(ExitCode::numerical, fmt::format("step {} (t = {:.6g} s)", step, time),
              fmt::format("the solution is no longer finite: {} is not finite at cell {}; nothing was "
                          "written at this step",
                          state_variables(global)[cell.variable].stored.name, describe_cell(cell, global.ny)),
              ErrorReach::every_rank);
}

}  // namespace simapp
