#pragma once
/// The streams a step program's lanes run on (CUDA only): one stream per lane, lane 0 at the
/// device's highest priority (it carries the critical path: halo exchanges, then the work
/// that waits for them), and the events that fork them from the stream the program is given
/// (the origin), join them at a Join op, and join them back into the origin. A graph capture
/// records these forks and joins as the graph's edges; eager_streams issues them live.
#include <cuda_runtime.h>

#include "kernels/backend/stream.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class LaneStreams {
 public:
  explicit LaneStreams(cudaStream_t origin);
  LaneStreams(const LaneStreams&) = delete;
  LaneStreams& operator=(const LaneStreams&) = delete;
  ~LaneStreams();

  Stream stream(int lane) const { return Stream{Backend::cuda, streams_[lane], nullptr}; }
  cudaStream_t origin() const { return origin_; }

  /// Lanes 0 .. lanes − 1 continue after what the origin has queued; they are the lanes that
  /// join() and end() join, until the next begin.
  void begin(int lanes);
  /// Every lane continues after what every lane has queued (a Join op).
  void join();
  /// The origin continues after what every lane has queued.
  void end();

 private:
  cudaStream_t origin_;
  cudaEvent_t origin_event_ = nullptr;
  cudaStream_t streams_[max_lanes] = {};
  cudaEvent_t events_[max_lanes] = {};
  int active_ = max_lanes;  ///< the lanes of the program being queued
};

}  // namespace simapp
