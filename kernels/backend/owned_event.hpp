#pragma once
/// An event the host can wait on, owned for its lifetime like OwnedStream: created on
/// construction (none on the host backend, where work is done when queued), destroyed with it.
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/stream.hpp"

namespace simapp {

class OwnedEvent {
 public:
  explicit OwnedEvent(Backend backend) : event_(device::create_event(backend)) {}
  OwnedEvent(const OwnedEvent&) = delete;
  OwnedEvent& operator=(const OwnedEvent&) = delete;
  ~OwnedEvent() { device::destroy_event(event_); }

  /// Records the event on `stream` (device::record_event).
  void record(const Stream& stream) const { device::record_event(stream, event_); }
  /// Waits until the work queued before the latest recording has finished.
  void wait() const { device::wait_for_event(event_); }
  /// Makes the work queued on `stream` from now on wait for the latest recording.
  void make_wait(const Stream& stream) const { device::stream_wait_event(stream, event_); }

 private:
  CUevent_st* event_;
};

}  // namespace simapp
