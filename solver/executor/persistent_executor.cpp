#include "solver/executor/persistent_executor.hpp"

#include <algorithm>
#include <limits>
#include <variant>

#include <fmt/format.h>

namespace simapp {

PersistentExecutor::PersistentExecutor(const ExecutorContext& context, Residency residency)
    : stream_(context.stream),
      arguments_(context.chunks.persistent_arguments(context.schedule, context.loop_clock)),
      grid_(std::visit([&](const auto& arguments) { return persistent_grid(arguments, residency); }, arguments_)) {}

long PersistentExecutor::advance(long /*completed*/, long batch, long /*steps_left*/) {
  for (long done = 0; done < batch;) {  // launches of at most INT_MAX steps
    const int launch = static_cast<int>(std::min<long>(batch - done, std::numeric_limits<int>::max()));
    std::visit([&](const auto& arguments) { run_persistent_steps(stream_, arguments, grid_, launch); }, arguments_);
    ++stats_.launches;
    done += launch;
  }
  return batch;
}

LaunchDescription PersistentExecutor::launch_description() const {
  if (grid_.residency == Residency::cluster)
    return {fmt::format("one kernel of one thread-block cluster a launch, {} blocks of {} threads ({} pass tiles at "
                        "once), a cluster barrier a pass",
                        grid_.blocks, grid_.block_threads, grid_.tiles_at_once),
            true, grid_.barriers_per_step};
  return {fmt::format("one cooperative kernel a launch, {} blocks of {} threads, a grid barrier a {}", grid_.blocks,
                      grid_.block_threads, grid_.barrier_a_pass ? "pass (3 stages a tile)" : "stage"),
          true, grid_.barriers_per_step};
}

}  // namespace simapp
