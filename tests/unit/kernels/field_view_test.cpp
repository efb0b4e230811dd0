/// FieldShape::offset, which counts an array's rows in an int and multiplies once, against the
/// layout written out with every stride in 64 bits: q[var][k][j][i] with ghost cells on every side
/// of the model's axes.
#include "kernels/backend/field_view.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace simapp {
namespace {

template <int Dims>
std::uint64_t strided(const FieldShape<Dims>& s, int var, int k, int j, int i) {
  const std::uint64_t nx = static_cast<std::uint64_t>(s.nx) + 2 * s.halo;
  const std::uint64_t ny = Dims == 3 ? static_cast<std::uint64_t>(s.ny) + 2 * s.halo : 1;
  const std::uint64_t nz = static_cast<std::uint64_t>(s.nz) + 2 * s.halo;
  const std::uint64_t jy = Dims == 3 ? static_cast<std::uint64_t>(j + s.halo) : 0;
  return ((static_cast<std::uint64_t>(var) * nz + static_cast<std::uint64_t>(k + s.halo)) * ny + jy) * nx +
         static_cast<std::uint64_t>(i + s.halo);
}

TEST(FieldShapeTest, EveryValueHasTheOffsetOfTheStridedLayoutOnce) {
  const FieldShape<3> three{7, 5, 4, 2, 3};
  std::vector<int> seen(three.size(), 0);
  for (int v = 0; v < three.num_vars; ++v)
    for (int k = -2; k < three.nz + 2; ++k)
      for (int j = -2; j < three.ny + 2; ++j)
        for (int i = -2; i < three.nx + 2; ++i) {
          ASSERT_EQ(three.offset(v, k, j, i), strided(three, v, k, j, i)) << v << " " << k << " " << j << " " << i;
          ++seen[three.offset(v, k, j, i)];
        }
  for (const int count : seen) EXPECT_EQ(count, 1);
  const FieldShape<2> two{9, 1, 6, 2, 4};
  for (int v = 0; v < two.num_vars; ++v)
    for (int k = -2; k < two.nz + 2; ++k)
      for (int i = -2; i < two.nx + 2; ++i) {
        EXPECT_EQ(two.offset(v, k, i), strided(two, v, k, 0, i));
        EXPECT_EQ(two.offset(v, k, 0, i), two.offset(v, k, i));
      }
}

/// Offsets past 2^32 (the last rows of a shape of max_field_rows rows of 4000 cells) are the
/// strided layout's: only the row counts in an int.
TEST(FieldShapeTest, OffsetsBeyondThirtyTwoBitsOfTheLastRowsAreExact) {
  const FieldShape<3> shape{3996, 46337, 46337, 2, 1};  // rows: 46341² = 2147488281 > 2^31 − 1
  FieldShape<3> largest = shape;
  largest.ny = largest.nz = 46336;  // 46340² = 2147395600 rows
  ASSERT_LE(largest.rows(), max_field_rows);
  ASSERT_GT(shape.rows(), max_field_rows);
  for (const int k : {-2, 0, 46000, 46335, 46337})
    for (const int i : {-2, 0, 3995, 3997})
      EXPECT_EQ(largest.offset(0, k, 46337, i), strided(largest, 0, k, 46337, i)) << k << " " << i;
  EXPECT_GT(largest.offset(0, 46337, 46337, 3997), std::uint64_t{1} << 32);
}

}  // namespace
}  // namespace simapp
