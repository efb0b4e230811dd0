/// The step programs follow the StepScheme they are built from: the model's scheme (odd steps x
/// then z, even steps z then x; dt/3, dt/2, dt) gives stages in that order for both parities
/// and every granularity, a scheme with the other order gives the other program, StepParams<2>
/// divide dt by the scheme's divisors, and the description `--plan` prints names it all.
#include "kernels/time/step_scheme.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/time/step_params.hpp"
#include "solver/grid/grid.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_description.hpp"

namespace simapp {
namespace {

StepResources<2> resources_of_8x8(Granularity granularity) {
  const Grid grid(GridSpec{8, 8, 800.0, 800.0});
  const BoundaryConditions<2> domain = case_boundaries(CaseName::thermal);
  return {step_field_shapes<2>(grid, granularity),         grid.geometry<2>(), {}, nullptr, Bump<2>{}, granularity,
          GhostFill<2>{.domain = domain, .sides = domain}, HealthCheckOps{}};
}

/// The stages of a program in order, by the "pass.stageN" that starts each op's name.
std::vector<std::string> stages_in_order(const StepProgram& program) {
  std::vector<std::string> stages;
  for (const StepOp& op : program.ops()) {
    const std::string stage = op.name.substr(0, op.name.find('.', op.name.find('.') + 1));
    if (stages.empty() || stages.back() != stage) stages.push_back(stage);
  }
  return stages;
}

/// The stages a scheme says a step of `parity` has: each pass in order, each of its stages.
std::vector<std::string> stages_of(const StepScheme& scheme, StepParity parity) {
  std::vector<std::string> stages;
  for (int p = 0; p < split_passes; ++p)
    for (int s = 0; s < rk_stages; ++s)
      stages.push_back(std::string(scheme.pass(parity, p) == Direction::x ? "x" : "z") + ".stage" +
                       std::to_string(s + 1));
  return stages;
}

std::vector<std::string> names_of(const StepProgram& program) {
  std::vector<std::string> names;
  for (const StepOp& op : program.ops()) names.push_back(op.name);
  return names;
}

TEST(StepSchemeTest, TheSchemeIsTheModelsSplitRk3) {
  const StepScheme scheme = step_scheme();
  EXPECT_EQ(scheme.pass(StepParity::odd, 0), Direction::x);
  EXPECT_EQ(scheme.pass(StepParity::odd, 1), Direction::z);
  EXPECT_EQ(scheme.pass(StepParity::even, 0), Direction::z);
  EXPECT_EQ(scheme.pass(StepParity::even, 1), Direction::x);
  const double divisors[rk_stages] = {3.0, 2.0, 1.0};
  const StageArray inputs[rk_stages] = {StageArray::state, StageArray::stage1, StageArray::stage2};
  const StageArray outputs[rk_stages] = {StageArray::stage1, StageArray::stage2, StageArray::state};
  for (int s = 0; s < rk_stages; ++s) {
    EXPECT_EQ(scheme.stages[s].dt_divisor, divisors[s]);
    EXPECT_EQ(scheme.stages[s].input, inputs[s]);
    EXPECT_EQ(scheme.stages[s].output, outputs[s]);
  }
}

TEST(StepSchemeTest, ProgramsRunTheStagesInTheSchemesOrderForBothParities) {
  const std::vector<std::string> x_then_z = {"x.stage1", "x.stage2", "x.stage3", "z.stage1", "z.stage2", "z.stage3"};
  const std::vector<std::string> z_then_x = {"z.stage1", "z.stage2", "z.stage3", "x.stage1", "x.stage2", "x.stage3"};
  for (Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage}) {
    const StepResources<2> resources = resources_of_8x8(granularity);
    const StepProgram odd = build_step_program(resources, StepParity::odd, 0);
    const StepProgram even = build_step_program(resources, StepParity::even, 0);
    EXPECT_EQ(stages_in_order(odd), stages_of(step_scheme(), StepParity::odd)) << to_string(granularity);
    EXPECT_EQ(stages_in_order(even), stages_of(step_scheme(), StepParity::even)) << to_string(granularity);
    EXPECT_EQ(stages_in_order(odd), x_then_z) << to_string(granularity);
    EXPECT_EQ(stages_in_order(even), z_then_x) << to_string(granularity);
  }
}

TEST(StepSchemeTest, ASchemeWithTheOtherOrderGivesTheOtherProgram) {
  StepScheme swapped = step_scheme();
  std::swap(swapped.pass_order[0], swapped.pass_order[1]);
  for (Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage}) {
    const StepResources<2> resources = resources_of_8x8(granularity);
    const StepProgram odd = build_step_program(resources, swapped, StepParity::odd, 0);
    const StepProgram even = build_step_program(resources, swapped, StepParity::even, 0);
    EXPECT_EQ(stages_in_order(odd).front(), "z.stage1") << to_string(granularity);
    EXPECT_EQ(names_of(odd), names_of(build_step_program(resources, StepParity::even, 0))) << to_string(granularity);
    EXPECT_EQ(names_of(even), names_of(build_step_program(resources, StepParity::odd, 0))) << to_string(granularity);
  }
}

TEST(StepSchemeTest, StepParamsDivideDtByTheSchemesDivisors) {
  const double dt = 0.7;
  const StepParams<2> params = step_params(dt, 100.0, 50.0, Dissipation{});
  for (int s = 0; s < rk_stages; ++s) EXPECT_EQ(params.stage[s].dt, dt / step_scheme().stages[s].dt_divisor);
  EXPECT_EQ(params.stage[0].dt, dt / 3.0);  // a division: dt * (1 / 3.0) differs in the last bit for some dt
  EXPECT_EQ(params.stage[1].dt, dt / 2.0);
  EXPECT_EQ(params.stage[2].dt, dt);
}

TEST(StepSchemeTest, TheThreeDSchemeUndoesEachStepsPassOrderInTheNextWithTheSameStages) {
  const StepSchemeOf<3> scheme = step_scheme_3d();
  const StepScheme two_d = step_scheme();
  ASSERT_EQ(scheme.passes, 3);
  // Odd steps x, y, z; the even step takes them in the reverse order, so that a pair of steps
  // is symmetric (as 2-D's x z | z x is).
  EXPECT_EQ(scheme.pass(StepParity::odd, 0), Direction::x);
  EXPECT_EQ(scheme.pass(StepParity::odd, 1), Direction::y);
  EXPECT_EQ(scheme.pass(StepParity::odd, 2), Direction::z);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(scheme.pass(StepParity::even, p), scheme.pass(StepParity::odd, 2 - p)) << p;
  // Every direction once a step.
  for (const StepParity parity : {StepParity::odd, StepParity::even}) {
    int seen[3] = {};
    for (int p = 0; p < 3; ++p) ++seen[static_cast<int>(scheme.pass(parity, p))];
    EXPECT_EQ(seen[0] * seen[1] * seen[2], 1);
  }
  for (int s = 0; s < rk_stages; ++s) {
    EXPECT_EQ(scheme.stages[s].input, two_d.stages[s].input) << s;
    EXPECT_EQ(scheme.stages[s].output, two_d.stages[s].output) << s;
    EXPECT_EQ(scheme.stages[s].dt_divisor, two_d.stages[s].dt_divisor) << s;
  }
  EXPECT_EQ(describe_passes(scheme), "passes: odd steps x then y then z; even steps z then y then x");
  EXPECT_EQ(describe_passes(two_d), "passes: odd steps x then z; even steps z then x");
}

TEST(StepSchemeTest, TheTwoDKernelsRefuseAYPass) {
  EXPECT_THROW(with_direction_of<2>(Direction::y, [](auto) {}), std::invalid_argument);
  Direction launched = Direction::y;
  with_direction_of<2>(Direction::z, [&](auto d) { launched = decltype(d)::value; });
  EXPECT_EQ(launched, Direction::z);
}

TEST(StepSchemeTest, TheDescriptionNamesPassesStagesGhostsChecksAndSides) {
  const std::vector<std::string> lines = describe_step(step_scheme(), case_boundaries(CaseName::injection), 10);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "passes: odd steps x then z; even steps z then x");
  EXPECT_EQ(lines[1], "stages of a pass: q* = qⁿ + dt/3 R(qⁿ); q** = qⁿ + dt/2 R(q*); qⁿ⁺¹ = qⁿ + dt/1 R(q**)");
  EXPECT_NE(lines[2].find("before the stage"), std::string::npos);
  EXPECT_EQ(lines[3], "health check: after each multiple of 10 steps and after the last");
  EXPECT_NE(lines[4].find("x low inflow (u = 50 m/s, θ = 298 K"), std::string::npos) << lines[4];
  EXPECT_NE(lines[4].find("x high periodic"), std::string::npos) << lines[4];
  EXPECT_NE(lines[4].find("z low free-slip wall"), std::string::npos) << lines[4];
}

}  // namespace
}  // namespace simapp
