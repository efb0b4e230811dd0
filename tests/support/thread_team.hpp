#pragma once
/// A ColumnTeam (kernels/backend/column_team.hpp) of std::threads for host tests:
/// run_thread_team(threads, body) runs body(team) on each of `threads` threads, their barrier a
/// std::barrier, as a CUDA block's threads run a column with __syncthreads.
#include <barrier>
#include <thread>
#include <vector>

#include "kernels/backend/column_team.hpp"

namespace simapp::testing {

struct ThreadBarrier {
  std::barrier<>* barrier;
  void operator()() const { barrier->arrive_and_wait(); }
};

using ThreadTeam = ColumnTeam<ThreadBarrier>;

template <class Body>
void run_thread_team(int threads, const Body& body) {
  std::barrier<> barrier(threads);
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t) team.emplace_back([&, t] { body(ThreadTeam{t, threads, {&barrier}}); });
  for (std::thread& thread : team) thread.join();
}

}  // namespace simapp::testing
