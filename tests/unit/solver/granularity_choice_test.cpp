/// execution.granularity: auto made concrete: stage on the host backend; on CUDA pass where a
/// step runs pass kernels (the rank holds the whole line of two or more passes, with periodic or
/// wall sides, and a pass kernel carries the state's tracers), else stage; an explicit
/// granularity is kept as configured on either backend.
#include "solver/step/granularity_choice.hpp"

#include <gtest/gtest.h>

#include <string>

namespace simapp {
namespace {

/// `name` on 12 × 8 cells (2-D), or 12 × 6 × 8 (3-D: `ny` > 1), at granularity auto.
RunSpec automatic_case(CaseName name, int ny = 1) {
  RunSpec spec;
  spec.case_name = name;
  spec.grid.nx = 12;
  spec.grid.ny = ny;
  spec.grid.nz = 8;
  spec.execution.granularity = Granularity::automatic;
  return spec;
}

/// The box of one rank of `px` × `py` × `pz` that holds the domain's origin.
RankBox first_box(const RunSpec& spec, int px, int py, int pz) {
  return RankBox{spec.grid.nx / px, spec.grid.nz / pz, 0, 0, spec.grid.ny / py, 0};
}

TEST(GranularityChoiceTest, TheDefaultIsAuto) { EXPECT_EQ(RunSpec{}.execution.granularity, Granularity::automatic); }

TEST(GranularityChoiceTest, AutoTakesStageOnTheHostBackend) {
  for (const CaseName name : {CaseName::thermal, CaseName::injection, CaseName::straka})
    for (const int ny : {1, 6}) {
      const RunSpec spec = automatic_case(name, ny);
      const GranularityChoice choice = choose_granularity(spec, Backend::host, first_box(spec, 1, 1, 1));
      EXPECT_EQ(choice.granularity, Granularity::stage) << to_string(name) << " ny " << ny;
      EXPECT_EQ(choice.reason, "auto: the host backend, where the stage kernels are faster than the pass kernels");
    }
}

TEST(GranularityChoiceTest, AutoTakesPassOnCudaWhereTheRankHoldsWholeLines) {
  const RunSpec two_d = automatic_case(CaseName::thermal);
  const GranularityChoice one_rank = choose_granularity(two_d, Backend::cuda, first_box(two_d, 1, 1, 1));
  EXPECT_EQ(one_rank.granularity, Granularity::pass);
  EXPECT_EQ(one_rank.reason, "auto: CUDA, one pass kernel for each of the 2 passes");

  const RunSpec three_d = automatic_case(CaseName::gravity_waves, 6);
  const GranularityChoice whole = choose_granularity(three_d, Backend::cuda, first_box(three_d, 1, 1, 1));
  EXPECT_EQ(whole.granularity, Granularity::pass);
  EXPECT_EQ(whole.reason, "auto: CUDA, one pass kernel for each of the 3 passes");
  // y split between ranks: the x and z passes still run pass kernels.
  const GranularityChoice split_y = choose_granularity(three_d, Backend::cuda, first_box(three_d, 1, 2, 1));
  EXPECT_EQ(split_y.granularity, Granularity::pass);
  EXPECT_EQ(split_y.reason,
            "auto: CUDA, pass kernels for 2 of the 3 passes, stage kernels for the other (a line split between "
            "ranks, or an inflow side)");
}

TEST(GranularityChoiceTest, AutoTakesStageOnCudaWhereFewerThanTwoPassesCanRunPassKernels) {
  const std::string one_of_two =
      "auto: CUDA, but a pass kernel serves 1 of the 2 passes here (a line split between ranks, or an inflow "
      "side), and a step runs them for two or more";
  const RunSpec thermal = automatic_case(CaseName::thermal);
  for (const auto& [px, pz] : {std::pair{2, 1}, std::pair{1, 2}}) {
    const GranularityChoice split = choose_granularity(thermal, Backend::cuda, first_box(thermal, px, 1, pz));
    EXPECT_EQ(split.granularity, Granularity::stage) << px << " x " << pz;
    EXPECT_EQ(split.reason, one_of_two);
  }
  // injection's inflow side needs the stage kernels along x, on one rank too.
  const RunSpec injection = automatic_case(CaseName::injection);
  const GranularityChoice inflow = choose_granularity(injection, Backend::cuda, first_box(injection, 1, 1, 1));
  EXPECT_EQ(inflow.granularity, Granularity::stage);
  EXPECT_EQ(inflow.reason, one_of_two);

  const RunSpec three_d = automatic_case(CaseName::thermal, 6);
  const GranularityChoice split_yz = choose_granularity(three_d, Backend::cuda, first_box(three_d, 1, 2, 2));
  EXPECT_EQ(split_yz.granularity, Granularity::stage);
  EXPECT_EQ(split_yz.reason,
            "auto: CUDA, but a pass kernel serves 1 of the 3 passes here (a line split between ranks, or an "
            "inflow side), and a step runs them for two or more");
  const RunSpec injection_3d = automatic_case(CaseName::injection, 6);
  EXPECT_EQ(choose_granularity(injection_3d, Backend::cuda, first_box(injection_3d, 1, 2, 1)).granularity,
            Granularity::stage);
}

TEST(GranularityChoiceTest, AutoTakesStageOnCudaForMoreTracersThanAPassKernelCarries) {
  RunSpec spec = automatic_case(CaseName::thermal, 6);
  spec.grid.microphysics = Microphysics::kessler;  // the water's 3 tracers
  spec.grid.tracers = {"smoke"};
  EXPECT_EQ(choose_granularity(spec, Backend::cuda, first_box(spec, 1, 1, 1)).granularity, Granularity::pass);
  spec.grid.tracers = {"smoke", "dye"};
  const GranularityChoice five = choose_granularity(spec, Backend::cuda, first_box(spec, 1, 1, 1));
  EXPECT_EQ(five.granularity, Granularity::stage);
  EXPECT_EQ(five.reason,
            "auto: CUDA, but the state's 5 tracers are more than a pass kernel carries (4), so every pass would run "
            "stage kernels");
}

TEST(GranularityChoiceTest, AnExplicitGranularityIsKeptOnEitherBackend) {
  for (const Granularity asked : {Granularity::fine, Granularity::fused, Granularity::stage, Granularity::pass})
    for (const Backend backend : {Backend::host, Backend::cuda}) {
      RunSpec spec = automatic_case(CaseName::injection);
      spec.execution.granularity = asked;
      const GranularityChoice choice = choose_granularity(spec, backend, first_box(spec, 2, 1, 1));
      EXPECT_EQ(choice.granularity, asked) << to_string(asked);
      EXPECT_EQ(choice.reason, "") << to_string(asked);
      EXPECT_EQ(with_concrete_granularity(spec, backend, first_box(spec, 2, 1, 1)).execution.granularity, asked);
    }
}

TEST(GranularityChoiceTest, ReportsNameWhatAutoDecided) {
  EXPECT_EQ(describe_granularity({Granularity::fused, ""}), "fused");
  EXPECT_EQ(describe_granularity({Granularity::pass, "auto: CUDA, one pass kernel for each of the 2 passes"}),
            "pass (auto: CUDA, one pass kernel for each of the 2 passes)");
  const RunSpec spec = automatic_case(CaseName::thermal);
  EXPECT_EQ(with_concrete_granularity(spec, Backend::cuda, first_box(spec, 1, 1, 1)).execution.granularity,
            Granularity::pass);
  EXPECT_EQ(with_concrete_granularity(spec, Backend::host, first_box(spec, 1, 1, 1)).execution.granularity,
            Granularity::stage);
}

}  // namespace
}  // namespace simapp
