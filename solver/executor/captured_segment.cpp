#include "solver/executor/captured_segment.hpp"

#include <chrono>

#include "kernels/backend/launch_recorder.hpp"

namespace simapp {

namespace {

/// The host backend's graph: the segment's launches, recorded once, replayed in order.
class RecordedSegment final : public CapturedSegment {
 public:
  RecordedSegment(const StepProgram& program, const Segment& segment, const Stream& stream) {
    Stream recording = stream;
    recording.recorder = &recorder_;
    for (std::size_t index = segment.first; index < segment.last; ++index)
      if (program.ops()[index].kind != OpKind::join) program.ops()[index].run(recording);
  }
  void replay(const Stream&) const override { recorder_.replay(); }
  std::size_t node_count() const override { return recorder_.size(); }

 private:
  LaunchRecorder recorder_;
};

}  // namespace

std::unique_ptr<CapturedSegment> capture_segment(const StepProgram& program, const Segment& segment,
                                                 const Stream& stream, CaptureTiming& timing) {
  if (stream.backend == Backend::cuda) return capture_cuda_segment(program, segment, stream, timing);
  const auto start = std::chrono::steady_clock::now();
  auto recorded = std::make_unique<RecordedSegment>(program, segment, stream);
  timing.capture_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return recorded;
}

}  // namespace simapp
