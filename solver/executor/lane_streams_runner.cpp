#include "solver/executor/lane_streams_runner.hpp"

#include "foundation/error.hpp"
#include "kernels/backend/trace_range.hpp"
#include "solver/executor/lane_streams.hpp"

namespace simapp {

LaneStreamsRunner::LaneStreamsRunner() = default;
LaneStreamsRunner::~LaneStreamsRunner() = default;

void LaneStreamsRunner::run(const StepProgram& program, const Stream& stream) {
  if (stream.backend != Backend::cuda) throw Error(ExitCode::internal, "eager_streams", "needs the CUDA backend");
  if (!lanes_) lanes_ = std::make_unique<LaneStreams>(stream.cuda_stream);
  if (lanes_->origin() != stream.cuda_stream)
    throw Error(ExitCode::internal, "eager_streams", "a program run on another stream than the first");
  bool forked = false;  // the lanes wait for the origin's work and the origin does not yet wait for theirs
  for (const StepOp& op : program.ops()) {
    const TraceRange range(op.name.c_str());
    if (op.kind == OpKind::host) {
      if (forked) lanes_->end();
      forked = false;
      op.run(stream);
      ++stats_.host_ops;
      continue;
    }
    if (!forked) lanes_->begin(program.lanes());
    forked = true;
    if (op.kind == OpKind::join) {
      lanes_->join();
      continue;
    }
    op.run(lanes_->stream(op.lane));
    ++stats_.launches;
  }
  if (forked) lanes_->end();
}

}  // namespace simapp
