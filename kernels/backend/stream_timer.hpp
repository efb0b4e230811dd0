#pragma once
/// Elapsed time of the work queued on a stream between start() and stop(): CUDA events on
/// the CUDA backend; on the host backend (where work runs as it is queued) the host clock.
#include <chrono>

#include "kernels/backend/stream.hpp"

struct CUevent_st;

namespace simapp {

class StreamTimer {
 public:
  explicit StreamTimer(const Stream& stream);
  StreamTimer(const StreamTimer&) = delete;
  StreamTimer& operator=(const StreamTimer&) = delete;
  ~StreamTimer();

  void start();
  void stop();
  /// Seconds from start() to stop(); waits for the stop to complete.
  double seconds() const;

 private:
  Stream stream_;
  CUevent_st* start_event_ = nullptr;
  CUevent_st* stop_event_ = nullptr;
  std::chrono::steady_clock::time_point host_start_, host_stop_;
};

}  // namespace simapp
