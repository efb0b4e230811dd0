#include "solver/step/step_program.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solver/step/build_step_program.hpp"

namespace simapp {
namespace {

TEST(StepProgramTest, HostOpsSplitKernelsIntoSegments) {
  StepProgram program;
  auto nothing = [](const Stream&) {};
  program.add_kernel("a", nothing);
  program.add_kernel("b", nothing);
  program.add_host("exchange", nothing);
  program.add_kernel("c", nothing);
  program.add_host("exchange2", nothing);
  const std::vector<Segment> segments = program.segments();
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].first, 0u);
  EXPECT_EQ(segments[0].size(), 2u);
  EXPECT_EQ(segments[1].first, 3u);
  EXPECT_EQ(segments[1].size(), 1u);
  EXPECT_EQ(program.kernel_count(), 3u);
}

TEST(StepProgramTest, OpsRunInOrder) {
  StepProgram program;
  std::vector<std::string> trace;
  program.add_kernel("first", [&](const Stream&) { trace.push_back("first"); });
  program.add_host("second", [&](const Stream&) { trace.push_back("second"); });
  for (const StepOp& op : program.ops()) op.run(Stream{});
  EXPECT_EQ(trace, (std::vector<std::string>{"first", "second"}));
}

TEST(StepProgramTest, OddStepsRunXThenZAndEvenStepsZThenX) {
  const Grid grid(GridSpec{8, 8, 800.0, 800.0});
  const Workspace workspace(Backend::host, grid);
  const StepResources resources{&workspace, grid.geometry(), {}, nullptr, CaseName::thermal};
  const StepProgram odd = build_step_program(resources, StepParity::odd);
  const StepProgram even = build_step_program(resources, StepParity::even);
  EXPECT_EQ(odd.ops().front().name, "x.stage1.fill_halos");
  EXPECT_EQ(odd.ops().back().name, "z.stage3.update");
  EXPECT_EQ(even.ops().front().name, "z.stage1.fill_halos");
  EXPECT_EQ(even.ops().back().name, "x.stage3.update");
  // 2 passes × 3 stages × (halo fill, fluxes, update), one segment (no Host op).
  EXPECT_EQ(odd.kernel_count(), 18u);
  EXPECT_EQ(odd.segments().size(), 1u);
  EXPECT_EQ(parity_of(1), StepParity::odd);
  EXPECT_EQ(parity_of(2), StepParity::even);
}

}  // namespace
}  // namespace simapp
