#include "solver/executor/persistent_executor.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace simapp {

namespace {

PersistentSteps persistent_arguments(const ExecutorContext& context) {
  const StepResources& resources = context.chunks.resources();
  const StepFields& fields = resources.fields;
  const HealthCheckOps& health = resources.health;
  // One rank: its sides are the domain's.
  return {fields.state,          fields.stage1,        fields.stage2,
          resources.geometry,    resources.background, resources.wave_source,
          resources.halo.domain, context.schedule,     resources.params->writable_device_slots(),
          context.loop_clock,    health.every,         health.record,
          health.mirror};
}

}  // namespace

PersistentExecutor::PersistentExecutor(const ExecutorContext& context)
    : stream_(context.stream), arguments_(persistent_arguments(context)), grid_(persistent_grid(arguments_)) {}

long PersistentExecutor::advance(long /*completed*/, long batch, long /*steps_left*/) {
  for (long done = 0; done < batch;) {  // launches of at most INT_MAX steps
    const int launch = static_cast<int>(std::min<long>(batch - done, std::numeric_limits<int>::max()));
    run_persistent_steps(stream_, arguments_, grid_, launch);
    ++stats_.launches;
    done += launch;
  }
  return batch;
}

LaunchDescription PersistentExecutor::launch_description() const {
  return {fmt::format("one cooperative kernel a launch, {} blocks of {} threads, a grid barrier a {}", grid_.blocks,
                      grid_.block_threads, grid_.barrier_a_pass ? "pass (3 stages a tile)" : "stage"),
          true, grid_.barrier_a_pass ? 2 : 2 * rk_stages};
}

}  // namespace simapp
