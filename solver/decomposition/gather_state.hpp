#pragma once
/// Assembling the global interior state on rank 0, in a fixed layout [var][k][i] over the
/// global nx × nz cells ([var][k][j][i] over nx × ny × nz in the 3-D model), whatever the
/// decomposition.
#include <cstddef>
#include <span>
#include <vector>

#include "kernels/backend/field_view.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp {

/// The most doubles one MPI message of a gather carries (its count is an int).
inline constexpr std::size_t max_message_values = std::size_t{1} << 26;

/// The sizes of the messages that carry `values` doubles, each at most `largest` (> 0): as
/// many full ones as fit, then the rest. 64-bit arithmetic: any `values` a rank can hold.
std::vector<int> message_sizes(std::size_t values, std::size_t largest = max_message_values);

/// Collective. `interior` is this rank's interior state [var][k][i] ([var][k][j][i]); rank 0 gets the global
/// interior state, other ranks an empty vector. Rank 0 receives one rank's block at a time, in
/// messages of message_sizes(block): no count overflows an int, however large the grid.
std::vector<double> gather_interior(const Decomposition& decomposition, std::span<const double> interior,
                                    std::size_t largest_message = max_message_values);

/// Collective. `surface` is this rank's `fields` fields over its columns, [field][j][i] (a
/// decomposition that does not split z: the microphysics' surface fields); rank 0 gets them over
/// the global columns, [field][j][i] over nx × ny, other ranks an empty vector.
std::vector<double> gather_surface(const Decomposition& decomposition, std::span<const double> surface, int fields);

}  // namespace simapp
