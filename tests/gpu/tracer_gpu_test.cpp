/// Passive tracers on the CUDA backend (label gpu; skipped without a GPU): the facts the host
/// holds (tests/regression/tracer_facts.hpp), and the tracers the host computes.
#include "tests/regression/tracer_facts.hpp"
#include "tests/support/recorded_value.hpp"

namespace simapp::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Cuda, TracerFactsTest, TracerFactsTest::on(Backend::cuda), TracerFactsTest::name);

/// ‖a − b‖₂ / ‖b‖₂.
double relative_l2(const std::vector<double>& a, const std::vector<double>& b) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t c = 0; c < b.size(); ++c) {
    difference += (a[c] - b[c]) * (a[c] - b[c]);
    norm += b[c] * b[c];
  }
  return std::sqrt(difference / norm);
}

class CudaTracerAgreementTest : public TracerFactsTest {};

/// The host and CUDA builds contract multiply-adds differently; the dry variables of these cases
/// agree to 1e-10 after 100 steps (backend_agreement_test), and the tracers, advected by the same
/// face velocities, to the same bound.
TEST_P(CudaTracerAgreementTest, EachTracerMatchesTheHostBackend) {
  for (const CaseName name : {CaseName::thermal, CaseName::injection}) {
    const TracerInit init = name == CaseName::thermal ? TracerInit::bump : TracerInit::uniform;
    const RunSpec spec = tracer_case(dims(), name, {"smoke", "dye"}, init);
    const std::vector<double> host = testing::final_state(spec, Backend::host, ExecutionMode::graph);
    const std::vector<double> cuda = testing::final_state(spec, Backend::cuda, ExecutionMode::graph);
    ASSERT_EQ(cuda.size(), host.size());
    for (int t = 0; t < 2; ++t) {
      const int v = dry_variables(dims()) + t;
      const double error = relative_l2(variable(cuda, spec, v), variable(host, spec, v));
      RecordProperty(std::string(to_string(name)) + "_tracer_" + std::to_string(t), testing::scientific(error));
      EXPECT_LE(error, 1e-10) << to_string(name) << ", tracer " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, CudaTracerAgreementTest, TracerFactsTest::on(Backend::cuda), TracerFactsTest::name);

}  // namespace
}  // namespace simapp::testing
