/// The 3-D model's step program (solver/step/build_step_program_3d.hpp): the passes and stages
/// of step_scheme_3d() in order, the stage kernels' bytes, and, run op by op, the same state bit
/// for bit as the stage kernels called one after another (tests/support/uniform_runs_3d.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "solver/step/build_step_program_3d.hpp"
#include "tests/support/uniform_runs_3d.hpp"

namespace simapp {
namespace {

using testing::CaseSetup;
using testing::TwoModels;

std::vector<std::string> names_of(const StepProgram& program) {
  std::vector<std::string> names;
  for (const StepOp& op : program.ops()) names.push_back(op.name);
  return names;
}

TEST(StepProgram3dTest, OddStepsRunXYZAndEvenStepsZYXThreeStagesEach) {
  const StepResources3d resources{};
  const std::vector<std::string> odd = names_of(build_step_program_3d(resources, StepParity::odd, 0));
  const std::vector<std::string> even = names_of(build_step_program_3d(resources, StepParity::even, 0));
  const std::vector<std::string> expected_odd{"x.stage1.stage", "x.stage2.stage", "x.stage3.stage",
                                              "y.stage1.stage", "y.stage2.stage", "y.stage3.stage",
                                              "z.stage1.stage", "z.stage2.stage", "z.stage3.stage"};
  const std::vector<std::string> expected_even{"z.stage1.stage", "z.stage2.stage", "z.stage3.stage",
                                               "y.stage1.stage", "y.stage2.stage", "y.stage3.stage",
                                               "x.stage1.stage", "x.stage2.stage", "x.stage3.stage"};
  EXPECT_EQ(odd, expected_odd);
  EXPECT_EQ(even, expected_even);
}

TEST(StepProgram3dTest, AStepMoves960BytesACell) {
  StepResources3d resources{};
  std::vector<double> a(1), b(1), c(1);  // distinct arrays: only their addresses count here
  const FieldShape3d shape{12, 7, 5, 2, 5};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}};
  const StepProgram step = build_step_program_3d(resources, StepParity::odd, 0);
  const std::size_t bytes = std::accumulate(step.ops().begin(), step.ops().end(), std::size_t{0},
                                            [](std::size_t sum, const StepOp& op) { return sum + op.bytes; });
  EXPECT_EQ(bytes, 960u * 12 * 7 * 5);
}

/// Two copies of a 3-D state that varies along y: one stepped by the stage kernels in turn, one by
/// programs, with the step values in a StepParamsBlock3d of two slots.
struct TwoCopies {
  TwoCopies() {
    FieldView3d<double>& q = direct.three_d.state.view;
    for (std::size_t n = 0; n < q.shape.size(); ++n) q.data[n] += 1e-3 * std::sin(0.37 * static_cast<double>(n));
    std::memcpy(programmed.three_d.state.view.data, q.data, q.shape.size() * sizeof(double));
    const StepParams3d slots[2] = {programmed.params_3d, programmed.params_3d};
    params.stage(slots);
    params.enqueue_refresh(Stream{}, 2);
  }
  StepResources3d resources(HealthCheckOps health = {}) const {
    return {{programmed.three_d.state.view, programmed.three_d.stage1.view, programmed.three_d.stage2.view},
            programmed.geometry_3d,
            programmed.background.view(),
            &params,
            Bump3d{},
            periodic_in_y(case_boundaries(CaseName::straka)),
            health,
            {}};
  }
  bool equal() const {
    const FieldView3d<double>& p = programmed.three_d.state.view;
    return std::memcmp(p.data, direct.three_d.state.view.data, p.shape.size() * sizeof(double)) == 0;
  }
  TwoModels direct{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  TwoModels programmed{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  StepParamsBlock3d params{Stream{}, 2};
};

TEST(StepProgram3dTest, RunOpByOpItEqualsTheStageKernelsCalledInTurnBitForBit) {
  TwoCopies copies;
  for (long step = 1; step <= 2; ++step) {
    copies.direct.step_3d(step);
    const StepProgram program = build_step_program_3d(copies.resources(), parity_of(step), 0);
    for (const StepOp& op : program.ops()) op.run(Stream{});
  }
  EXPECT_TRUE(copies.equal());
}

TEST(StepProgram3dTest, AChunkRunsItsStepsFromItsSlotsAndChecksWhereItsLayoutSays) {
  TwoCopies copies;
  HealthRecord record, mirror;
  const ChunkLayout layout{StepParity::odd, 2, {1}};
  const StepProgram chunk = build_chunk_program_3d(copies.resources({1, &record, &mirror}), layout);
  std::vector<std::string> names = names_of(chunk);
  EXPECT_EQ(names.front(), "refresh_step_params");
  EXPECT_EQ(names[1], "step1/x.stage1.stage");
  EXPECT_EQ(names[10], "step2/z.stage1.stage");
  EXPECT_EQ(names[names.size() - 2], "step2/check_health");
  EXPECT_EQ(names.back(), "step2/count_health_check");
  EXPECT_EQ(names.size(), 1u + 18u + 2u);
  for (const StepOp& op : chunk.ops()) op.run(Stream{});
  copies.direct.step_3d(1);
  copies.direct.step_3d(2);
  EXPECT_TRUE(copies.equal());
  EXPECT_EQ(mirror.checks_run, 1);
  EXPECT_EQ(mirror.failed_check, -1);
}

}  // namespace
}  // namespace simapp
