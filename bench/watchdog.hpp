#pragma once
/// Safety: a hung GPU or driver must not hang the caller.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace simapp::bench {

/// Ends the process with an error when the benchmark outlives `limit`.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();

 private:
  void watch(std::chrono::seconds limit);

  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

}  // namespace simapp::bench
