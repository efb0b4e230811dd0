#include "solver/simulation/queue_pacing.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "kernels/backend/device_runtime.hpp"

namespace simapp {
namespace {

TEST(QueuePacingTest, NextPaceAimsAtTheBatchTimeInWholeGranules) {
  // 1000 steps in 0.25 s: 2000 steps take batch_seconds (0.5 s).
  EXPECT_EQ(next_pace(1000, 0.25, 1), 2000);
  // Never more than eight times the batch it learned from, nor less than one granule.
  EXPECT_EQ(next_pace(16, 1e-4, 1), 128);
  EXPECT_EQ(next_pace(16, 0.0, 1), 128);
  EXPECT_EQ(next_pace(42, 10.0, 42), 42);
  // 42-step granules (graph_loop: iterations of its body): 0.5 s is 1000 steps at 0.5 ms, 23 granules.
  EXPECT_EQ(next_pace(420, 0.21, 42), 966);
  EXPECT_EQ(next_pace(420, 0.21, 42) % 42, 0);
}

/// Batches as the host backend times them: nothing runs between start and end, so every
/// batch looks fast and the pace grows eightfold, learning from the batch before last.
TEST(QueuePacingTest, LearnsFromTheBatchBeforeLastAndNeverExceedsWhatIsLeft) {
  const Stream stream = device::create_stream(Backend::host);
  QueuePacing pacing(stream, MPI_COMM_SELF, 1);
  std::vector<long> batches;
  for (long left = 100000; left > 0;) {
    const long steps = pacing.next_batch(left);
    pacing.batch_starts();
    pacing.batch_ends(steps);
    batches.push_back(steps);
    left -= steps;
  }
  // The first two batches learn from none; then each from the one before last. The last
  // batch is what is left (100000 - 84256).
  const std::vector<long> expected{16, 16, 128, 128, 1024, 1024, 8192, 8192, 65536, 15744};
  EXPECT_EQ(batches, expected);
  device::destroy_stream(stream);
}

TEST(QueuePacingTest, GranulesRoundTheFirstBatchUp) {
  const Stream stream = device::create_stream(Backend::host);
  QueuePacing pacing(stream, MPI_COMM_SELF, 42);
  EXPECT_EQ(pacing.next_batch(1000), 42);
  pacing.batch_starts();
  pacing.batch_ends(42);
  EXPECT_EQ(pacing.next_batch(10), 10);  // what is left, when fewer
  device::destroy_stream(stream);
}

/// Chunks of 5 steps queued into batches: a batch stays open across chunks until they fill it
/// (the chunk that fills it may go past it), and it is timed as the steps it held; a launch that
/// is a whole batch closes it at once. The batches are the same as the low-level calls give.
TEST(QueuePacingTest, OpenBatchesCloseWhenChunksFillThemOrWhenALaunchIsTheBatch) {
  const Stream stream = device::create_stream(Backend::host);
  QueuePacing pacing(stream, MPI_COMM_SELF, 1);
  std::vector<long> rooms;
  for (int chunk = 0; chunk < 5; ++chunk) {
    rooms.push_back(pacing.open_batch(1000));
    pacing.queued(5, false);
  }
  // 16, 11, 6, 1 left of the first batch; its fourth chunk fills it (20 steps); the second
  // batch opens with the first batch's pace, 16.
  EXPECT_EQ(rooms, (std::vector<long>{16, 11, 6, 1, 16}));
  pacing.close_batch();                     // the second batch, 5 steps, closed early (a reset)
  pacing.close_batch();                     // none open: nothing to close
  EXPECT_EQ(pacing.open_batch(1000), 160);  // learned from the first batch (20 fast steps: 8 × 20)
  pacing.queued(160, true);
  EXPECT_EQ(pacing.open_batch(1000), 40);  // from the second: 8 × its 5 steps
  pacing.queued(1, true);                  // a launch that is the batch closes it, however short
  EXPECT_EQ(pacing.open_batch(30), 30);    // from the third, 1280 (8 × 160), at most what is left
  device::destroy_stream(stream);
}

}  // namespace
}  // namespace simapp
