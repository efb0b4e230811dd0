/// simapp-bench's section 6: what thread-block clusters cost on the current device (compute
/// capability 9.0 and later), beside the grid-wide barrier of section 5. A cluster barrier
/// (cooperative_groups::this_cluster().sync()) in one cluster and in as many as fit at once; the
/// latency of one dependent load from the block's own shared memory, from another block's of the
/// cluster (distributed shared memory), and from the L2 cache (global memory, around L1): what a
/// kernel keeping a small grid's state on chip pays to read a neighbour's edge.
#include <string>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "bench/bench_cuda_check.cuh"
#include "bench/cuda_handles.cuh"
#include "bench/host_timing.hpp"
#include "bench/launch_harness.cuh"
#include "bench/launch_measurements.hpp"
#include "foundation/error.hpp"

namespace simapp::bench {

namespace {

namespace cg = cooperative_groups;

/// `barriers` cluster barriers, nothing else.
__global__ void cluster_barrier_kernel(int barriers) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  for (int b = 0; b < barriers; ++b) cluster.sync();
#endif
}

/// Where the chain of loads of latency_chain_kernel reads.
enum class ChainSource : int { own_shared = 0, other_block_shared = 1, l2 = 2 };

/// The next position of a chain through kChainSlots slots: a stride of 33 slots (coprime to the
/// slot count) so that consecutive loads fall in other banks and lines.
__host__ __device__ constexpr int next_slot(int slot) { return (slot + 33) % kChainSlots; }

/// Thread 0 of the cluster's block 0 follows `loads` dependent loads (slot = table[slot]) through
/// `source`; every block fills its shared table first, and no block leaves before the chain is
/// done (another block's shared memory lives as long as that block). `l2` holds the same table.
/// The end of the chain goes to `sink` so that the loads are not dropped.
__global__ void latency_chain_kernel(int loads, ChainSource source, const int* l2, int* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ int table[kChainSlots];
  cg::cluster_group cluster = cg::this_cluster();
  for (int s = static_cast<int>(threadIdx.x); s < kChainSlots; s += static_cast<int>(blockDim.x))
    table[s] = next_slot(s);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    const int* chain = table;
    if (source == ChainSource::other_block_shared) chain = cluster.map_shared_rank(table, 1);
    int slot = 0;
    if (source == ChainSource::l2) {
      for (int n = 0; n < loads; ++n) slot = __ldcg(l2 + slot);
    } else {
      for (int n = 0; n < loads; ++n) slot = chain[slot];
    }
    *sink = slot;
  }
  cluster.sync();
#endif
}

/// A launch of `clusters` clusters of `size` blocks of `threads` threads on `stream`: the
/// configuration, and the cluster attribute it points to.
struct ClusterLaunch {
  cudaLaunchAttribute attribute = {};
  cudaLaunchConfig_t config = {};

  ClusterLaunch(int size, int clusters, int threads, cudaStream_t stream) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(size);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.gridDim = dim3(static_cast<unsigned>(size * clusters));
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;  // config points into the object
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

/// Launches `kernel(args...)` as `clusters` clusters of `size` blocks of `threads` threads.
template <class... Args>
void launch_clusters(void (*kernel)(Args...), int size, int clusters, int threads, cudaStream_t stream, Args... args) {
  const ClusterLaunch launch(size, clusters, threads, stream);
  BENCH_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, kernel, args...));
}

/// Clusters of `size` blocks of `kernel` (`threads` threads) the device runs at once; 0 where none fits.
template <class Kernel>
int max_active_clusters(Kernel kernel, int size, int threads) {
  BENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const ClusterLaunch launch(size, 1, threads, nullptr);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.config) != cudaSuccess) {
    (void)cudaGetLastError();  // a size the device refuses: no cluster of it
    return 0;
  }
  return clusters;
}

/// GPU µs of one launch of cluster_barrier_kernel: `clusters` clusters of `size`, `barriers` barriers.
Stats cluster_barrier_kernel_us(const Bench& bench, int size, int clusters, int barriers) {
  return repeated(bench.config.repeat, [&] {
    return gpu_us(
        bench, [&] { launch_clusters(cluster_barrier_kernel, size, clusters, kBarrierThreads, bench.s(), barriers); });
  });
}

/// GPU µs of one launch of latency_chain_kernel (one cluster of two blocks) with `loads` loads.
Stats latency_chain_kernel_us(const Bench& bench, int loads, ChainSource source, const int* l2, int* sink) {
  return repeated(bench.config.repeat, [&] {
    return gpu_us(
        bench, [&] { launch_clusters(latency_chain_kernel, 2, 1, kChainThreads, bench.s(), loads, source, l2, sink); });
  });
}

}  // namespace

bool LaunchBench::has_clusters() const {
  int device = 0, major = 0;
  BENCH_CUDA_CHECK(cudaGetDevice(&device));
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

std::vector<ClusterShape> LaunchBench::cluster_shapes() const {
  std::vector<ClusterShape> shapes;
  for (const int size : {2, 4, 8, 16}) {
    const int fit = max_active_clusters(cluster_barrier_kernel, size, kBarrierThreads);
    if (fit == 0) continue;
    shapes.push_back({size, 1});
    if (fit > 1) shapes.push_back({size, fit});
  }
  return shapes;
}

ClusterBarrierTimes LaunchBench::cluster_barrier(const ClusterShape& shape) const {
  ClusterBarrierTimes times;
  times.shape = shape;
  measure_barriers(
      times, [&](int barriers) { return cluster_barrier_kernel_us(*bench_, shape.size, shape.clusters, barriers); });
  return times;
}

LoadLatencies LaunchBench::load_latencies() const {
  const Bench& bench = *bench_;
  std::vector<int> table(kChainSlots);
  for (int s = 0; s < kChainSlots; ++s) table[static_cast<std::size_t>(s)] = next_slot(s);
  static_assert(sizeof(int) == sizeof(float), "the chain's slots live in float-sized device memory");
  const DevicePointer l2 = make_device_floats(kChainSlots);
  const DevicePointer sink = make_device_floats(1);
  BENCH_CUDA_CHECK(cudaMemcpy(l2.get(), table.data(), sizeof(int) * table.size(), cudaMemcpyHostToDevice));
  const auto* l2_table = static_cast<const int*>(l2.get());
  auto* sink_slot = static_cast<int*>(sink.get());
  // The difference between chains of many and of no loads, per load, in ns; the chain of many
  // runs last, so that the sink holds its end.
  int expected = 0;
  for (int n = 0; n < kChainLoads; ++n) expected = next_slot(expected);
  const auto ns_per_load = [&](ChainSource source) {
    const Stats none = latency_chain_kernel_us(bench, 0, source, l2_table, sink_slot);
    const Stats with = latency_chain_kernel_us(bench, kChainLoads, source, l2_table, sink_slot);
    int end = -1;
    BENCH_CUDA_CHECK(cudaMemcpy(&end, sink_slot, sizeof(int), cudaMemcpyDeviceToHost));
    if (end != expected)
      throw Error(ExitCode::internal, "",
                  "the load-latency chain ended at slot " + std::to_string(end) + ", expected " +
                      std::to_string(expected) + " (the kernel did not run as written)");
    return difference_over(with, none, kChainLoads * 1e-3);
  };
  LoadLatencies latencies;
  latencies.own_shared_ns = ns_per_load(ChainSource::own_shared);
  latencies.other_block_shared_ns = ns_per_load(ChainSource::other_block_shared);
  latencies.l2_ns = ns_per_load(ChainSource::l2);
  return latencies;
}

}  // namespace simapp::bench
