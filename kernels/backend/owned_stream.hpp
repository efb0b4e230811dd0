#pragma once
/// A backend stream owned for its lifetime (created on construction, destroyed with it).
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/stream.hpp"

namespace simapp {

class OwnedStream {
 public:
  explicit OwnedStream(Backend backend) : stream_(device::create_stream(backend)) {}
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  ~OwnedStream() { device::destroy_stream(stream_); }
  const Stream& get() const { return stream_; }

 private:
  Stream stream_;
};

}  // namespace simapp
