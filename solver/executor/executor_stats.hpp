#pragma once
/// What an executor, or a program runner, has done so far.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simapp {

struct ExecutorStats {
  std::int64_t launches = 0;                 ///< kernel and transfer launches (eager) or graph launches (graph)
  std::int64_t host_ops = 0;                 ///< Host ops performed
  std::int64_t captures = 0;                 ///< segments captured
  std::int64_t instantiations = 0;           ///< executable graphs made
  double capture_seconds = 0.0;              ///< host time spent capturing
  double instantiate_seconds = 0.0;          ///< host time spent instantiating (and uploading)
  std::vector<std::size_t> nodes_per_graph;  ///< of every captured segment, in capture order

  /// Adds what `other` has done.
  ExecutorStats& operator+=(const ExecutorStats& other) {
    launches += other.launches;
    host_ops += other.host_ops;
    captures += other.captures;
    instantiations += other.instantiations;
    capture_seconds += other.capture_seconds;
    instantiate_seconds += other.instantiate_seconds;
    nodes_per_graph.insert(nodes_per_graph.end(), other.nodes_per_graph.begin(), other.nodes_per_graph.end());
    return *this;
  }
};

}  // namespace simapp
