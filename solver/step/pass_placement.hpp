#pragma once
/// Where each split pass of a step finds qⁿ and leaves its result among the step's three arrays
/// (0: the state, 1: stage1, 2: stage2), when some passes run as one pass kernel each
/// (execution.granularity: pass). A pass kernel writes another array than it reads (its tiles
/// read the neighbours of cells other tiles are writing); a pass of stage kernels updates its
/// array in place, q* and q** in the other two. The step must end in the state, so the last
/// pass kernel writes it, and it can only when it reads another array: a step runs pass kernels
/// where at least two of its passes can, else stage kernels throughout.
#include <array>
#include <cstddef>

namespace simapp {

struct PassPlacement {
  bool pass_kernel = false;
  int input = 0;   ///< the array holding qⁿ
  int output = 0;  ///< the array qⁿ⁺¹ goes to (the input for stage kernels)
  /// The arrays a pass of stage kernels puts q* and q** in: the two others, in order.
  constexpr int stage1() const { return (input + 1) % 3; }
  constexpr int stage2() const { return (input + 2) % 3; }
};

/// Whether a step whose passes' pass kernels serve the rank's sides as `can_fuse` says runs any:
/// two of them or more.
template <std::size_t Passes>
constexpr bool runs_pass_kernels(const std::array<bool, Passes>& can_fuse) {
  int fusable = 0;
  for (const bool can : can_fuse) fusable += can ? 1 : 0;
  return fusable >= 2;
}

/// The placement of a step's passes, `can_fuse[p]` saying whether pass p's pass kernel serves
/// the rank's sides along it.
template <std::size_t Passes>
constexpr std::array<PassPlacement, Passes> place_passes(const std::array<bool, Passes>& can_fuse) {
  int last = -1;
  for (std::size_t p = 0; p < Passes; ++p)
    if (can_fuse[p]) last = static_cast<int>(p);
  std::array<PassPlacement, Passes> placement{};
  int current = 0;
  for (std::size_t p = 0; p < Passes; ++p) {
    PassPlacement& pass = placement[p];
    pass.pass_kernel = runs_pass_kernels(can_fuse) && can_fuse[p];
    pass.input = current;
    if (pass.pass_kernel) current = static_cast<int>(p) == last ? 0 : current == 1 ? 2 : 1;
    pass.output = current;
  }
  return placement;
}

}  // namespace simapp
