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

TEST(StepProgram3dTest, RunOpByOpItEqualsTheStageKernelsCalledInTurnBitForBit) {
  TwoModels direct(Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true);
  TwoModels programmed(Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true);
  // A state that varies along y, the same in both.
  FieldView3d<double>& q = direct.three_d.state.view;
  for (std::size_t n = 0; n < q.shape.size(); ++n) q.data[n] += 1e-3 * std::sin(0.37 * static_cast<double>(n));
  std::memcpy(programmed.three_d.state.view.data, q.data, q.shape.size() * sizeof(double));
  const StepResources3d resources{
      {programmed.three_d.state.view, programmed.three_d.stage1.view, programmed.three_d.stage2.view},
      programmed.geometry_3d,
      programmed.background.view(),
      programmed.params_3d_in_memory.data(),
      Bump3d{},
      periodic_in_y(case_boundaries(CaseName::straka))};
  for (long step = 1; step <= 2; ++step) {
    direct.step_3d(step);
    const StepProgram program = build_step_program_3d(resources, parity_of(step), 0);
    for (const StepOp& op : program.ops()) op.run(Stream{});
  }
  const FieldView3d<double>& p = programmed.three_d.state.view;
  EXPECT_EQ(std::memcmp(p.data, q.data, q.shape.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace simapp
