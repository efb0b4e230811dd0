#include "solver/executor/eager_runner.hpp"

#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/trace_range.hpp"

namespace simapp {

void EagerRunner::run(const StepProgram& program, const Stream& stream) {
  for (const StepOp& op : program.ops()) {
    if (op.kind == OpKind::join) continue;  // one stream: everything is already in order
    {
      const TraceRange range(op.name.c_str());
      op.run(stream);
    }
    if (op.kind == OpKind::host) {
      ++stats_.host_ops;
      continue;
    }
    ++stats_.launches;
    if (synchronization_ == Synchronization::every_launch) device::synchronize(stream);
  }
}

}  // namespace simapp
