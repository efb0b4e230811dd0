#include "solver/step/granularity_choice.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include <fmt/core.h>

#include "foundation/error.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/stage/pass_kernel.hpp"
#include "kernels/stage/pass_tile_sides.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/halo/rank_boundaries.hpp"
#include "solver/step/pass_placement.hpp"

namespace simapp {

namespace {

/// The choice for a rank on which pass kernels can serve the passes `served` says.
template <std::size_t Passes>
GranularityChoice choose(Granularity asked, Backend backend, const std::array<bool, Passes>& served) {
  if (asked != Granularity::automatic) return {asked, ""};
  if (backend == Backend::host)
    return {Granularity::stage, "auto: the host backend, where the stage kernels are faster than the pass kernels"};
  std::size_t count = 0;
  for (const bool serves : served) count += serves ? 1 : 0;
  if (!runs_pass_kernels(served))
    return {Granularity::stage,
            fmt::format("auto: CUDA, but a pass kernel serves {} of the {} passes here (a line split between ranks, "
                        "or an inflow side), and a step runs them for two or more",
                        count, Passes)};
  if (count == Passes)
    return {Granularity::pass, fmt::format("auto: CUDA, one pass kernel for each of the {} passes", Passes)};
  return {Granularity::pass,
          fmt::format("auto: CUDA, pass kernels for {} of the {} passes, stage kernels for the other (a line split "
                      "between ranks, or an inflow side)",
                      count, Passes)};
}

}  // namespace

GranularityChoice choose_granularity(Granularity asked, Backend backend, const BoundaryConditions<2>& sides) {
  return choose(asked, backend,
                std::array{pass_tile_makes_along(sides, Direction::x), pass_tile_makes_along(sides, Direction::z)});
}

GranularityChoice choose_granularity(Granularity asked, Backend backend, const BoundaryConditions<3>& sides) {
  return choose(asked, backend,
                std::array{pass_tile_makes_along(sides, Direction::x), pass_tile_makes_along(sides, Direction::y),
                           pass_tile_makes_along(sides, Direction::z)});
}

namespace {

/// The passes whose ghost cells the pass tiles make on the rank holding `box`: x, (y,) z.
std::vector<bool> passes_served(const RunSpec& spec, const RankBox& box) {
  const BoundaryConditions<2> domain = case_boundaries(spec.case_name);
  if (spec.grid.ny > 1) {
    const BoundaryConditions<3> sides = rank_boundaries(periodic_in_y(domain), box, spec.grid);
    return {pass_tile_makes_along(sides, Direction::x), pass_tile_makes_along(sides, Direction::y),
            pass_tile_makes_along(sides, Direction::z)};
  }
  const BoundaryConditions<2> sides = rank_boundaries(domain, box, spec.grid);
  return {pass_tile_makes_along(sides, Direction::x), pass_tile_makes_along(sides, Direction::z)};
}

}  // namespace

std::string why_pass_tiles_cannot_serve(const RunSpec& spec, const RankBox& box) {
  const auto tracers = static_cast<int>(state_tracers(spec.grid).size());
  if (!pass_kernel_carries(tracers))
    return fmt::format("the state's {} tracers are more than a pass tile carries ({})", tracers,
                       pass_kernel_max_tracers);
  const std::vector<bool> served = passes_served(spec, box);
  const auto count = std::count(served.begin(), served.end(), true);
  if (count < static_cast<long>(served.size()))
    return fmt::format(
        "the pass tiles make the ghost cells of {} of the {} passes here (a line split between ranks, "
        "or an inflow side)",
        count, served.size());
  return {};
}

GranularityChoice choose_granularity(const RunSpec& spec, Backend backend, const RankBox& box) {
  const Granularity asked = spec.execution.granularity;
  const auto tracers = static_cast<int>(state_tracers(spec.grid).size());
  if (asked == Granularity::automatic && backend == Backend::cuda && !pass_kernel_carries(tracers))
    return {Granularity::stage,
            fmt::format("auto: CUDA, but the state's {} tracers are more than a pass kernel carries ({}), so every "
                        "pass would run stage kernels",
                        tracers, pass_kernel_max_tracers)};
  const BoundaryConditions<2> domain = case_boundaries(spec.case_name);
  if (spec.grid.ny > 1)
    return choose_granularity(asked, backend, rank_boundaries(periodic_in_y(domain), box, spec.grid));
  return choose_granularity(asked, backend, rank_boundaries(domain, box, spec.grid));
}

RunSpec with_concrete_granularity(const RunSpec& spec, Backend backend, const RankBox& box) {
  RunSpec concrete = spec;
  concrete.execution.granularity = choose_granularity(spec, backend, box).granularity;
  return concrete;
}

void refuse_unresolved_granularity() {
  throw Error(ExitCode::internal, "execution.granularity",
              "a step was built at granularity auto, before choose_granularity made it concrete");
}

std::string describe_granularity(const GranularityChoice& choice) {
  const std::string name(to_string(choice.granularity));
  return choice.reason.empty() ? name : fmt::format("{} ({})", name, choice.reason);
}

}  // namespace simapp
