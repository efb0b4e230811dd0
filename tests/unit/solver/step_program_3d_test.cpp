/// The 3-D model's step program (solver/step/build_step_program_3d.hpp): the passes and stages
/// of step_scheme_3d() in order, the stage kernels' bytes, and, run op by op, the same state bit
/// for bit as the stage kernels called one after another (tests/support/uniform_runs_3d.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/flux/fluxes.hpp"
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
  const FieldShape<3> shape{12, 7, 5, 2, 5};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
  const StepProgram step = build_step_program_3d(resources, StepParity::odd, 0);
  const std::size_t bytes = std::accumulate(step.ops().begin(), step.ops().end(), std::size_t{0},
                                            [](std::size_t sum, const StepOp& op) { return sum + op.bytes; });
  EXPECT_EQ(bytes, 960u * 12 * 7 * 5);
}

TEST(StepProgram3dTest, PassGranularityRunsAPassKernelWhereTheRankMakesTheSidesAlongIt) {
  StepResources3d resources{};
  resources.granularity = Granularity::pass;
  resources.domain = resources.sides = periodic_in_y(case_boundaries(CaseName::thermal));
  EXPECT_EQ(names_of(build_step_program_3d(resources, StepParity::odd, 0)),
            (std::vector<std::string>{"x.pass", "y.pass", "z.pass"}));
  EXPECT_EQ(names_of(build_step_program_3d(resources, StepParity::even, 0)),
            (std::vector<std::string>{"z.pass", "y.pass", "x.pass"}));

  const auto kernels = [&] {  // the pass and stage kernels, without the halo exchanges' ops
    std::vector<std::string> names = names_of(build_step_program_3d(resources, StepParity::odd, 0));
    std::erase_if(names, [](const std::string& name) { return !name.ends_with(".pass") && !name.ends_with(".stage"); });
    return names;
  };
  resources.sides.z_high.kind = BoundaryKind::exchanged;  // a rank below another
  EXPECT_EQ(kernels(),
            (std::vector<std::string>{"x.pass", "y.pass", "z.stage1.stage", "z.stage2.stage", "z.stage3.stage"}));

  resources.sides.y_low.kind = resources.sides.y_high.kind = BoundaryKind::exchanged;  // x alone: stage kernels
  EXPECT_EQ(kernels().size(), 9u);
  EXPECT_EQ(kernels().front(), "x.stage1.stage");

  resources.sides = resources.domain = periodic_in_y(case_boundaries(CaseName::injection));  // an inflow along x
  EXPECT_EQ(names_of(build_step_program_3d(resources, StepParity::odd, 0)).back(), "z.pass");
}

TEST(StepProgram3dTest, APassKernelMoves80BytesACell) {
  StepResources3d resources{};
  resources.granularity = Granularity::pass;
  resources.domain = resources.sides = periodic_in_y(case_boundaries(CaseName::thermal));
  std::vector<double> a(1), b(1), c(1);
  const FieldShape<3> shape{12, 7, 5, 2, 5};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
  const StepProgram step = build_step_program_3d(resources, StepParity::odd, 0);
  for (const StepOp& op : step.ops()) EXPECT_EQ(op.bytes, 80u * 12 * 7 * 5) << op.name;
}

TEST(StepProgram3dTest, FusedAndFineStagesAreTheKernelsOfThe2dModelWithAYPass) {
  StepResources3d resources{};
  resources.domain = resources.sides = periodic_in_y(case_boundaries(CaseName::injection));
  resources.granularity = Granularity::fused;
  const std::vector<std::string> fused = names_of(build_step_program_3d(resources, StepParity::odd, 0));
  const std::vector<std::string> x_stage{"x.stage1.fill_halos", "x.stage1.inflow", "x.stage1.fluxes",
                                         "x.stage1.update"};
  EXPECT_EQ(std::vector<std::string>(fused.begin(), fused.begin() + 4), x_stage) << "x: outflow high, inflow low";
  EXPECT_EQ(fused.size(), 3u * (4 + 3 + 3)) << "x: fill, inflow, fluxes, update; y and z: fill, fluxes, update";
  EXPECT_EQ(fused[12], "y.stage1.fill_halos");
  EXPECT_EQ(fused[21], "z.stage1.fill_halos");

  resources.granularity = Granularity::fine;
  const StepProgram fine = build_step_program_3d(resources, StepParity::odd, 0);
  const auto named = [&](const std::string& name) { return std::ranges::find(fine.ops(), name, &StepOp::name); };
  ASSERT_NE(named("y.stage2.flux.vmom"), fine.ops().end());
  EXPECT_EQ(named("y.stage2.flux.vmom")->lane, 2) << "variable v on lane v";
  EXPECT_EQ(named("z.stage3.update.rhot")->lane, 4);
  EXPECT_EQ(fine.lanes(), ModelVariables<3>::count);
  EXPECT_EQ(fine.count(OpKind::kernel), 3u * (5 + 1 + 4 * 5) + 3u * (5 + 4 * 5) + 3u * (5 + 4 * 5))
      << "each stage: fill, reconstruct, flux, tendency and update of each variable; x's inflow once";
}

/// Two copies of a 3-D state that varies along y: one stepped by the stage kernels in turn, one by
/// programs, with the step values in a StepParamsBlock3d of two slots, and the face arrays of the
/// fused and fine granularities.
struct TwoCopies {
  TwoCopies() {
    FieldView<double, 3>& q = direct.three_d.state.view;
    for (std::size_t n = 0; n < q.shape.size(); ++n) q.data[n] += 1e-3 * std::sin(0.37 * static_cast<double>(n));
    std::memcpy(programmed.three_d.state.view.data, q.data, q.shape.size() * sizeof(double));
    const StepParams<3> slots[2] = {programmed.params_3d, programmed.params_3d};
    params.stage(slots);
    params.enqueue_refresh(Stream{}, 2);
  }
  StepResources3d resources(HealthCheckOps health = {}, Granularity granularity = Granularity::stage) {
    const BoundaryConditions<3> sides = periodic_in_y(case_boundaries(CaseName::straka));
    return {{programmed.three_d.state.view, programmed.three_d.stage1.view, programmed.three_d.stage2.view,
             view(flux, faces), view(face_value, faces), view(face_d3, faces), view(tendency, cells)},
            programmed.geometry_3d,
            programmed.background.view(),
            &params,
            Bump<3>{},
            granularity,
            sides,
            sides,
            health,
            {},
            false};
  }
  /// The interior cells bit for bit (the fused and fine granularities also fill ghost cells in memory).
  bool equal() const {
    const FieldView<double, 3>& p = programmed.three_d.state.view;
    const FieldView<double, 3>& d = direct.three_d.state.view;
    for (int v = 0; v < p.shape.num_vars; ++v)
      for (int k = 0; k < p.shape.nz; ++k)
        for (int j = 0; j < p.shape.ny; ++j)
          if (std::memcmp(&p(v, k, j, 0), &d(v, k, j, 0), p.shape.nx * sizeof(double)) != 0) return false;
    return true;
  }
  static FieldView<double, 3> view(std::vector<double>& values, const FieldShape<3>& shape) {
    values.assign(shape.size(), 0.0);
    return {values.data(), shape};
  }
  TwoModels direct{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  TwoModels programmed{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  StepParamsBlock3d params{Stream{}, 2};
  FieldShape<3> faces = face_shape(programmed.three_d.state.view.shape);
  FieldShape<3> cells{40, 9, 16, 0, ModelVariables<3>::count};
  std::vector<double> flux, face_value, face_d3, tendency;
};

TEST(StepProgram3dTest, RunOpByOpEveryGranularityEqualsTheStageKernelsCalledInTurnBitForBit) {
  for (const Granularity granularity : {Granularity::stage, Granularity::fused, Granularity::fine, Granularity::pass}) {
    TwoCopies copies;
    const StepResources3d resources = copies.resources({}, granularity);
    for (long step = 1; step <= 2; ++step) {
      copies.direct.step_3d(step);
      const StepProgram program = build_step_program_3d(resources, parity_of(step), 0);
      for (const StepOp& op : program.ops())
        if (op.kind != OpKind::join) op.run(Stream{});
    }
    EXPECT_TRUE(copies.equal()) << to_string(granularity);
  }
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
