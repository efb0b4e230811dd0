#pragma once
/// The host backend's stand-in for stream capture: while a Stream carries a recorder,
/// parallel_for and copy_async append their work to it instead of running it, and the
/// recording is replayed later, as a CUDA graph is.
#include <functional>
#include <vector>

namespace simapp {

class LaunchRecorder {
 public:
  void record(std::function<void()> launch) { launches_.push_back(std::move(launch)); }
  void replay() const {
    for (const auto& launch : launches_) launch();
  }
  std::size_t size() const { return launches_.size(); }

 private:
  std::vector<std::function<void()>> launches_;
};

}  // namespace simapp
