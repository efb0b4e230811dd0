// The shape of simapp's execution.mode graph_loop with nothing of simapp in it, to show how
// compute-sanitizer's memcheck treats a conditional WHILE node (docs/sanitizers.md):
//
//   nvcc -std=c++17 -arch=sm_90 -o while_node_memcheck docs/sanitizers/while_node_memcheck.cu
//   compute-sanitizer --tool memcheck ./while_node_memcheck 22 while
//
// A WHILE body writes two 112-byte parameter slots from a step counter in device memory,
// reads each, counts the steps and sets the loop's condition; between loop launches an
// ordinary graph refreshes slot 0 from pinned memory and reads it (a step outside the loop).
// Modes: "while" as said; "plain" the same body as an ordinary graph launched once a pass;
// "while_output" as simapp at an output step: the state staged by a 2-D device-to-device copy
// and an event on the loop's stream, the loop launched, then the staged copy read back to
// pinned memory on a second stream after that event while the loop runs.
// Prints the sum it accumulated, which depends only on the passes: 15400 for 22 passes.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                               \
  do {                                                            \
    const cudaError_t status = (call);                            \
    if (status != cudaSuccess) {                                  \
      std::printf("%s: %s\n", #call, cudaGetErrorString(status)); \
      return 1;                                                   \
    }                                                             \
  } while (0)

struct Slot {
  double values[14];
};

struct Clock {
  long completed;
  long target;
};

__global__ void write_slots(Slot* slots, int count, const Clock* clock) {
  const int j = static_cast<int>(threadIdx.x);
  if (j < count)
    for (int k = 0; k < 14; ++k) slots[j].values[k] = static_cast<double>(clock->completed + j + k);
}

__global__ void read_slot(const Slot* slots, int j, double* sums) {
  sums[threadIdx.x] += slots[j].values[threadIdx.x % 14];
}

__global__ void count_steps(Clock* clock, int steps, cudaGraphConditionalHandle condition) {
  clock->completed += steps;
  cudaGraphSetConditional(condition, clock->completed < clock->target ? 1u : 0u);
}

__global__ void count_steps_plain(Clock* clock, int steps) { clock->completed += steps; }

__global__ void set_target(Clock* clock, long steps) { clock->target = clock->completed + steps; }

int main(int argc, char** argv) {
  if (argc != 3) {
    std::printf("usage: %s PASSES while|plain|while_output\n", argv[0]);
    return 2;
  }
  const int passes = std::atoi(argv[1]);
  const char* mode = argv[2];
  const bool plain = std::strcmp(mode, "plain") == 0;
  const bool output = std::strcmp(mode, "while_output") == 0;
  constexpr int steps = 2;  // slots, and steps a pass

  Slot* slots = nullptr;
  CHECK(cudaMalloc(&slots, steps * sizeof(Slot)));
  Slot* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, steps * sizeof(Slot)));
  for (int j = 0; j < steps; ++j)
    for (int k = 0; k < 14; ++k) pinned[j].values[k] = j + k;
  double* sums = nullptr;
  CHECK(cudaMalloc(&sums, 256 * sizeof(double)));
  CHECK(cudaMemset(sums, 0, 256 * sizeof(double)));
  Clock* clock = nullptr;
  CHECK(cudaMalloc(&clock, sizeof(Clock)));
  CHECK(cudaMemset(clock, 0, sizeof(Clock)));

  // The state of a 96 x 48 grid of 4 variables, rows padded to 100, and its copies.
  const size_t row = 96 * sizeof(double), padded_row = 100 * sizeof(double), rows = 4 * 48;
  char* state = nullptr;
  CHECK(cudaMalloc(&state, padded_row * rows));
  CHECK(cudaMemset(state, 1, padded_row * rows));
  char* staged = nullptr;
  CHECK(cudaMalloc(&staged, row * rows));
  char* copied = nullptr;
  CHECK(cudaMallocHost(&copied, row * rows));

  cudaStream_t stream = nullptr, copy_stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking));
  cudaEvent_t staged_event = nullptr, copied_event = nullptr;
  CHECK(cudaEventCreateWithFlags(&staged_event, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&copied_event, cudaEventDisableTiming));

  cudaGraph_t graph = nullptr;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle condition{};
  cudaGraph_t body = graph;
  if (!plain) {
    CHECK(cudaGraphConditionalHandleCreate(&condition, graph, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = condition;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t loop_node = nullptr;
    CHECK(cudaGraphAddNode(&loop_node, graph, nullptr, nullptr, 0, &params));
    body = params.conditional.phGraph_out[0];
  }
  CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  write_slots<<<1, 32, 0, stream>>>(slots, steps, clock);
  for (int j = 0; j < steps; ++j) read_slot<<<1, 256, 0, stream>>>(slots, j, sums);
  if (plain)
    count_steps_plain<<<1, 1, 0, stream>>>(clock, steps);
  else
    count_steps<<<1, 1, 0, stream>>>(clock, steps, condition);
  cudaGraph_t captured = nullptr;
  CHECK(cudaStreamEndCapture(stream, &captured));
  cudaGraphExec_t loop = nullptr;
  CHECK(cudaGraphInstantiate(&loop, graph, 0));

  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaMemcpyAsync(slots, pinned, sizeof(Slot), cudaMemcpyHostToDevice, stream));
  read_slot<<<1, 256, 0, stream>>>(slots, 0, sums);
  cudaGraph_t outside_graph = nullptr;
  CHECK(cudaStreamEndCapture(stream, &outside_graph));
  cudaGraphExec_t outside = nullptr;
  CHECK(cudaGraphInstantiate(&outside, outside_graph, 0));

  for (int interval = 0; interval < 4; ++interval) {
    if (output) {
      CHECK(cudaMemcpy2DAsync(staged, row, state, padded_row, row, rows, cudaMemcpyDeviceToDevice, stream));
      CHECK(cudaEventRecord(staged_event, stream));
    }
    set_target<<<1, 1, 0, stream>>>(clock, static_cast<long>(passes) * steps);
    for (int launch = 0; launch < (plain ? passes : 1); ++launch) CHECK(cudaGraphLaunch(loop, stream));
    if (output) {
      CHECK(cudaStreamWaitEvent(copy_stream, staged_event));
      CHECK(cudaMemcpyAsync(copied, staged, row * rows, cudaMemcpyDeviceToHost, copy_stream));
      CHECK(cudaEventRecord(copied_event, copy_stream));
      CHECK(cudaEventSynchronize(copied_event));
    }
    CHECK(cudaGraphLaunch(outside, stream));
    CHECK(cudaStreamSynchronize(stream));
  }
  double host_sums[256];
  CHECK(cudaMemcpy(host_sums, sums, sizeof host_sums, cudaMemcpyDeviceToHost));
  std::printf("%s, %d passes: sum %g\n", mode, passes, host_sums[0]);
  return 0;
}
