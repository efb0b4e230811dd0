/// The bytes each kernel of a step must move (the profile report's accounting), checked
/// against what the scheme reads and writes: a stage-granularity step moves 4 variables of
/// input, initial state and output in each of its 6 stages, less the initial state where it
/// is the input (the first stage of each pass): (2 · 64 + 4 · 96) = 512 bytes a cell; and a
/// profiled step reports every kernel with a time and its bytes.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "solver/simulation/step_profile.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

std::size_t kernel_bytes(Simulation& simulation) {
  std::size_t bytes = 0;
  for (const auto& [op, seconds] : simulation.time_next_step())
    if (op->kind == OpKind::kernel) {
      EXPECT_GT(op->bytes, 0u) << op->name << ": every kernel is accounted for";
      bytes += op->bytes;
    }
  return bytes;
}

TEST(StepTrafficTest, StageStepMovesFiveHundredTwelveBytesACell) {
  for (CaseName name : {CaseName::thermal, CaseName::injection}) {
    RunSpec spec = testing::small_case(name, 48, 24, 10.0);
    spec.execution.granularity = Granularity::stage;
    testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
    EXPECT_EQ(kernel_bytes(*simulation), 512u * 48 * 24) << to_string(name);
  }
}

TEST(StepTrafficTest, FinerGranularitiesMoveMore) {
  std::size_t stage = 0;
  for (Granularity granularity : {Granularity::stage, Granularity::fused, Granularity::fine}) {
    RunSpec spec = testing::small_case(CaseName::thermal, 48, 24, 10.0);
    spec.execution.granularity = granularity;
    testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
    const std::size_t bytes = kernel_bytes(*simulation);
    if (granularity == Granularity::stage) {
      stage = bytes;
    } else {
      EXPECT_GT(bytes, stage) << to_string(granularity);
    }
  }
}

/// With tracers every kernel of a step is accounted for too, the tracers' ghost fills included,
/// in every granularity that runs the tracer transport as kernels of its own.
TEST(StepTrafficTest, TracerKernelsAreAccountedFor) {
  for (Granularity granularity : {Granularity::stage, Granularity::fused, Granularity::fine}) {
    RunSpec spec = testing::small_case(CaseName::injection, 48, 24, 10.0);
    spec.grid.tracers = {"smoke"};
    spec.execution.granularity = granularity;
    testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
    EXPECT_GT(kernel_bytes(*simulation), 0u) << to_string(granularity);
  }
}

/// Each kernel's bytes in a step of `spec`, by name.
std::map<std::string, std::size_t> bytes_by_kernel(const RunSpec& spec) {
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
  std::map<std::string, std::size_t> bytes;
  for (const auto& [op, seconds] : simulation->time_next_step())
    if (op->kind == OpKind::kernel) bytes[op->name] = op->bytes;
  return bytes;
}

/// In float32 every kernel moves half the bytes of float64, except the microphysics: it reads and
/// writes the state in the run's precision but its scratch fields in double, so it moves more than
/// half and less than all.
TEST(StepTrafficTest, Float32KernelsMoveHalfTheStatesBytes) {
  RunSpec spec = testing::small_case(CaseName::moist_thermal, 48, 24, 10.0);
  spec.grid.microphysics = Microphysics::kessler;
  const std::map<std::string, std::size_t> float64 = bytes_by_kernel(spec);
  spec.execution.precision = Precision::float32;
  const std::map<std::string, std::size_t> float32 = bytes_by_kernel(spec);
  ASSERT_EQ(float32.size(), float64.size());
  ASSERT_EQ(float32.count("step1/microphysics"), 1u);
  for (const auto& [name, bytes] : float64) {
    ASSERT_EQ(float32.count(name), 1u) << name;
    if (name == "step1/microphysics") {
      EXPECT_GT(2 * float32.at(name), bytes);
      EXPECT_LT(float32.at(name), bytes);
    } else {
      EXPECT_EQ(2 * float32.at(name), bytes) << name;
    }
  }
}

TEST(StepTrafficTest, ProfileTimesEveryOpOfTheStep) {
  RunSpec spec = testing::small_case(CaseName::thermal, 48, 24, 10.0);
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
  const StepProfile profile = profile_steps(*simulation, 2, 3);  // the measured steps start with an odd one
  EXPECT_EQ(profile.measured_steps, 3);
  ASSERT_EQ(profile.ops.size(), 7u);  // the parameter refresh and six stage kernels
  EXPECT_EQ(profile.step_bytes, 512u * 48 * 24);
  EXPECT_EQ(profile.cells, 48 * 24);
  EXPECT_GT(profile.copy_bandwidth, 0.0);
  for (const OpProfile& op : profile.ops) EXPECT_GE(op.seconds, 0.0) << op.name;
  EXPECT_EQ(profile.ops[1].name, "x.stage1.stage");
}

}  // namespace
}  // namespace simapp
