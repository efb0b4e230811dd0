#pragma once
/// What the measurements of simapp-bench launch, and how much: the two kernels, the batch and
/// graph sizes, the sweeps. The measurements run them; the report names them.
#include <vector>

namespace simapp::bench {

/// The benchmark kernels: an empty one, launched <<<1,1>>>, and the short kernel y = a*x.
enum class KernelKind { empty, scale };

constexpr int kScaleElements = 500'000;  ///< the "short kernel": y = a*x on 500k floats
constexpr float kScaleFactor = 2.0F;
constexpr int kScaleBlock = 256;
constexpr int kEnqueueBatch = 10'000;        ///< back-to-back launches timed for the enqueue cost
constexpr int kShortKernelBatch = 1'000;     ///< kernels per short-kernel measurement
constexpr int kShortKernelGroup = 20;        ///< kernels per sync (or per graph) in the grouped variants
constexpr int kKernelDurationNodes = 1'000;  ///< nodes of the graph that times the scale kernel itself
constexpr int kReplayNodeBudget = 20'000;    ///< nodes replayed per sweep measurement (sets the replay count)
inline const std::vector<int> kEmptySweep = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
inline const std::vector<int> kScaleSweep = {10, 100, 1000, 5000};
constexpr int kFitSmall = 1'000;           ///< per-node costs are the slope between these two graph sizes,
constexpr int kFitLarge = 5'000;           ///< which both sweeps contain
constexpr int kBarrierThreads = 256;       ///< threads a block of the grid-barrier kernel
constexpr int kBarriersPerKernel = 1'000;  ///< grid-wide (and cluster) barriers a barrier kernel
constexpr int kChainSlots = 1'024;         ///< ints of the table a load-latency chain runs through (4 KB)
constexpr int kChainLoads = 100'000;       ///< dependent loads of a load-latency chain
constexpr int kChainThreads = 128;         ///< threads a block of the load-latency kernel (one follows the chain)

}  // namespace simapp::bench
