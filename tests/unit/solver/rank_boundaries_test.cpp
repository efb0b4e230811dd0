/// A rank's sides: the domain's boundary conditions where the rank lies on the domain's
/// boundary and no neighbour rank is there, exchanged where one is, an inflow kept after its
/// exchange.
#include "solver/halo/rank_boundaries.hpp"

#include <gtest/gtest.h>

#include "kernels/cases/case_list.hpp"

namespace simapp {
namespace {

constexpr GridSpec global{12, 8, 1200.0, 800.0};

TEST(RankBoundariesTest, OneRankHasTheDomainsSides) {
  const BoundaryConditions<2> domain = case_boundaries(CaseName::injection);
  const BoundaryConditions<2> sides = rank_boundaries(domain, RankBox{12, 8, 0, 0}, global);
  EXPECT_EQ(sides.x_low.kind, BoundaryKind::inflow);
  EXPECT_EQ(sides.x_high.kind, BoundaryKind::periodic);
  EXPECT_EQ(sides.z_low.kind, BoundaryKind::wall);
  EXPECT_EQ(sides.z_high.kind, BoundaryKind::wall);
}

TEST(RankBoundariesTest, SplitInXEveryXSideIsExchangedAndTheInflowStaysOnTheLeftRank) {
  const BoundaryConditions<2> domain = case_boundaries(CaseName::injection);
  const BoundaryConditions<2> left = rank_boundaries(domain, RankBox{4, 8, 0, 0}, global);
  const BoundaryConditions<2> middle = rank_boundaries(domain, RankBox{4, 8, 4, 0}, global);
  const BoundaryConditions<2> right = rank_boundaries(domain, RankBox{4, 8, 8, 0}, global);
  EXPECT_EQ(left.x_low.kind, BoundaryKind::exchanged_inflow);
  EXPECT_TRUE(left.inflow.applies(600.0, 800.0));
  EXPECT_EQ(left.x_high.kind, BoundaryKind::exchanged);
  EXPECT_EQ(middle.x_low.kind, BoundaryKind::exchanged);
  EXPECT_EQ(middle.x_high.kind, BoundaryKind::exchanged);
  EXPECT_EQ(right.x_low.kind, BoundaryKind::exchanged);
  EXPECT_EQ(right.x_high.kind, BoundaryKind::exchanged);
  for (const BoundaryConditions<2>& sides : {left, middle, right}) {
    EXPECT_TRUE(sides.z_low.is_wall());
    EXPECT_TRUE(sides.z_high.is_wall());
  }
}

TEST(RankBoundariesTest, SplitInZTheWallsStayOnTheOuterRanks) {
  const BoundaryConditions<2> domain = case_boundaries(CaseName::thermal);
  const BoundaryConditions<2> bottom = rank_boundaries(domain, RankBox{12, 4, 0, 0}, global);
  const BoundaryConditions<2> top = rank_boundaries(domain, RankBox{12, 4, 0, 4}, global);
  EXPECT_TRUE(bottom.z_low.is_wall());
  EXPECT_EQ(bottom.z_high.kind, BoundaryKind::exchanged);
  EXPECT_EQ(top.z_low.kind, BoundaryKind::exchanged);
  EXPECT_TRUE(top.z_high.is_wall());
  EXPECT_TRUE(bottom.x_low.copies_periodic_image());
  EXPECT_TRUE(top.x_high.copies_periodic_image());
}

}  // namespace
}  // namespace simapp
