#pragma once
/// What the measurements of simapp-bench hand to its report; all times in µs.
#include <string>

namespace simapp::bench {

/// 1. The empty kernel <<<1,1>>>, launched alone.
struct EmptyKernelTimes {
  double event_us = 0;               ///< CUDA events around one launch
  double round_trip_us = 0;          ///< launch + stream sync round trip (host clock)
  double enqueue_us_per_launch = 0;  ///< host enqueue cost per launch (kEnqueueBatch back to back)
  int samples = 0;                   ///< single launches timed for each of event_us and round_trip_us
};

/// 2. The short kernel (y = a*x on kScaleElements floats), host µs per kernel of
/// kShortKernelBatch kernels launched three ways, and its own duration.
struct ShortKernelTimes {
  double sync_each_us_per_kernel = 0;   ///< sync after every launch
  double group_sync_us_per_kernel = 0;  ///< kShortKernelGroup launches, then one sync
  double graph_us_per_kernel = 0;       ///< graphs of kShortKernelGroup kernels, launch + sync per graph
  double kernel_us = 0;                 ///< GPU time of one kernel (events around a kKernelDurationNodes-node graph)
  double bandwidth_gbs = 0;             ///< x read and y written in kernel_us
};

/// 3. One graph size of the sweep; all times in µs (host clock).
struct SweepPoint {
  std::string kernel;
  int nodes = 0;
  int replays = 0;            ///< graph launches per replay measurement
  double capture_us = 0;      ///< stream capture of the chain, per graph
  double instantiate_us = 0;  ///< cudaGraphInstantiate, per graph
  double replay_sync_us = 0;  ///< graph launch + stream sync, per graph
  double replay_b2b_us = 0;   ///< back-to-back launches then one sync, per graph
};

}  // namespace simapp::bench
