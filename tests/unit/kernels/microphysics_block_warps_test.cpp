/// How the CUDA microphysics takes a rank's columns (microphysics_block_warps): blocks of 32
/// columns whose warps fill at most the GPU's warp slots (16 a multiprocessor at 128 registers),
/// a power of two up to 16 and at most nz; a thread a column where not even two warps fit.
#include <gtest/gtest.h>

#include "kernels/microphysics/microphysics.hpp"

namespace simapp {
namespace {

constexpr int h100_multiprocessors = 132;  // 2112 warp slots

TEST(MicrophysicsBlockWarpsTest, FewColumnsRunTheirLevelsAtOnceOnAsManyWarpsAsFit) {
  EXPECT_EQ(microphysics_block_warps(48 * 24, 10, h100_multiprocessors), 10);   // 36 blocks: 16 warps, nz 10
  EXPECT_EQ(microphysics_block_warps(64 * 64, 32, h100_multiprocessors), 16);   // 128 blocks × 16 = 2048
  EXPECT_EQ(microphysics_block_warps(128 * 128, 64, h100_multiprocessors), 4);  // 512 blocks × 4 = 2048
  EXPECT_EQ(microphysics_block_warps(168 * 168, 40, h100_multiprocessors), 2);  // 882 blocks × 2 = 1764
  EXPECT_EQ(microphysics_block_warps(1, 3, h100_multiprocessors), 3);
}

TEST(MicrophysicsBlockWarpsTest, ManyColumnsRunAThreadAColumn) {
  EXPECT_EQ(microphysics_block_warps(256 * 256, 128, h100_multiprocessors), 0);  // 2048 blocks × 2 > 2112
  const int fits = 32 * 16 * h100_multiprocessors / 2;                           // 1056 blocks × 2 warps
  EXPECT_EQ(microphysics_block_warps(fits, 40, h100_multiprocessors), 2);
  EXPECT_EQ(microphysics_block_warps(fits + 1, 40, h100_multiprocessors), 0);
  EXPECT_EQ(microphysics_block_warps(fits + 1, 40, 2 * h100_multiprocessors), 2);  // twice the slots
}

}  // namespace
}  // namespace simapp
