/// Water on the CUDA backend (label gpu; skipped without a GPU): the facts the host holds
/// (tests/regression/moist_facts.hpp), and the state the host computes.
#include "tests/regression/moist_facts.hpp"
#include "tests/support/recorded_value.hpp"

namespace simapp::testing::moist {
namespace {

INSTANTIATE_TEST_SUITE_P(Cuda, MoistFactsTest, MoistFactsTest::on(Backend::cuda), MoistFactsTest::name);

/// ‖a − b‖₂ / ‖b‖₂ (‖a − b‖₂ where b is 0).
double relative_l2(const std::vector<double>& a, const std::vector<double>& b) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t c = 0; c < b.size(); ++c) {
    difference += (a[c] - b[c]) * (a[c] - b[c]);
    norm += b[c] * b[c];
  }
  return norm == 0.0 ? std::sqrt(difference) : std::sqrt(difference / norm);
}

class CudaMoistAgreementTest : public MoistFactsTest {};

/// The host and CUDA builds contract multiply-adds differently, and the saturation adjustment's
/// exponential and thresholds pass those last-bit differences on; after 60 s of moist_thermal
/// (cloud from the first call, rain within a few steps) every variable, the water's included,
/// agrees to 1e-8 in the relative L2 norm, and the rain on the ground likewise.
TEST_P(CudaMoistAgreementTest, EveryVariableAndTheSurfaceWaterMatchTheHostBackend) {
  const RunSpec spec = moist_case(dims(), CaseName::moist_thermal, 60.0);
  const MoistRun host = moist::run_of(spec, Backend::host, ExecutionMode::graph);
  const MoistRun cuda = moist::run_of(spec, Backend::cuda, ExecutionMode::graph);
  ASSERT_EQ(cuda.final.size(), host.final.size());
  const int variables = dry_variables(dims()) + water_tracers;
  for (int v = 0; v < variables; ++v) {
    const double error = relative_l2(variable(cuda.final, spec, v), variable(host.final, spec, v));
    RecordProperty("variable_" + std::to_string(v), testing::scientific(error));
    EXPECT_LE(error, 1e-8) << "variable " << v;
  }
  ASSERT_EQ(cuda.surface.size(), host.surface.size());
  EXPECT_LE(relative_l2(cuda.surface, host.surface), 1e-8) << "surface water";
}

INSTANTIATE_TEST_SUITE_P(Cuda, CudaMoistAgreementTest, MoistFactsTest::on(Backend::cuda), MoistFactsTest::name);

}  // namespace
}  // namespace simapp::testing::moist
