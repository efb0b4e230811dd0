#include "bench/watchdog.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>

#include "foundation/error.hpp"

namespace simapp::bench {

Watchdog::Watchdog(std::chrono::seconds limit) : thread_([this, limit] { watch(limit); }) {}

Watchdog::~Watchdog() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Watchdog::watch(std::chrono::seconds limit) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, limit, [this] { return done_; })) return;
  fmt::print(stderr, "simapp-bench: error: watchdog: still running after {} s, giving up\n", limit.count());
  std::fflush(stderr);
  std::_Exit(static_cast<int>(ExitCode::internal));
}

}  // namespace simapp::bench
