/// Water's facts (tests/regression/moist_facts.hpp) on the host backend; the GPU tests hold the
/// same facts on the CUDA backend.
#include "tests/regression/moist_facts.hpp"

namespace simapp::testing::moist {
namespace {

INSTANTIATE_TEST_SUITE_P(BothModels, MoistFactsTest, MoistFactsTest::on(Backend::host), MoistFactsTest::name);

}  // namespace
}  // namespace simapp::testing::moist
