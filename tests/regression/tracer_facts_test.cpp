/// Passive tracers' facts (tests/regression/tracer_facts.hpp) on the host backend; the GPU tests
/// hold the same facts on the CUDA backend.
#include "tests/regression/tracer_facts.hpp"

namespace simapp::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(BothModels, TracerFactsTest, TracerFactsTest::on(Backend::host), TracerFactsTest::name);

}  // namespace
}  // namespace simapp::testing
