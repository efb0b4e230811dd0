#include "solver/executor/chunk_programs.hpp"

#include <algorithm>

namespace simapp {

ChunkPrograms::ChunkPrograms(const StepResources& resources, StepParamsBlock& params, const TimeStepping& time,
                             double dx, double dz, const Dissipation& physics, int check_every)
    : resources_(resources),
      params_(params),
      time_(time),
      dx_(dx),
      dz_(dz),
      physics_(physics),
      check_every_(check_every) {}

ChunkLayout ChunkPrograms::layout_after(long completed, int steps) const {
  return chunk_layout(completed, steps, time_.num_steps(), check_every_);
}

const StepProgram& ChunkPrograms::program(const ChunkLayout& layout) {
  auto found = programs_.find(layout);
  if (found == programs_.end()) found = programs_.emplace(layout, build_chunk_program(resources_, layout)).first;
  return found->second;
}

void ChunkPrograms::stage_params(long completed, int steps) {
  std::vector<StepParams> params(static_cast<std::size_t>(steps));
  for (int j = 0; j < steps; ++j) params[j] = step_params(time_.dt_of(completed + 1 + j), dx_, dz_, physics_);
  params_.stage(params);
}

const StepProgram& ChunkPrograms::staged(long completed, int steps) {
  stage_params(completed, steps);
  return program_after(completed, steps);
}

long steps_to_next_end(long completed, const std::vector<long>& chunk_ends, long num_steps) {
  const auto next_end = std::ranges::upper_bound(chunk_ends, completed);
  return (next_end == chunk_ends.end() ? num_steps : std::min(*next_end, num_steps)) - completed;
}

}  // namespace simapp
