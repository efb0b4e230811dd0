/// main() for simapp's GoogleTest programs: MPI is initialized around the tests (one rank
/// under plain ctest, several under mpiexec), and only rank 0 prints results.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/support/launch_environment.hpp"

extern char** environ;

namespace simapp::testing {

std::string launch_environment;

namespace {

/// The OMPI_MCA_* and PMIX_MCA_* variables of `variables`, as NAME='value' assignments.
std::string mpi_settings(char** variables) {
  std::string settings;
  for (char** variable = variables; *variable != nullptr; ++variable) {
    const std::string_view entry(*variable);
    const std::size_t equals = entry.find('=');
    if (equals == std::string_view::npos || !(entry.starts_with("OMPI_MCA_") || entry.starts_with("PMIX_MCA_")))
      continue;
    std::string value;
    for (const char c : entry.substr(equals + 1)) value += c == '\'' ? std::string("'\\''") : std::string(1, c);
    settings += std::string(entry.substr(0, equals)) + "='" + value + "' ";
  }
  return settings;
}

}  // namespace
}  // namespace simapp::testing

int main(int argc, char** argv) {
  simapp::testing::launch_environment = simapp::testing::mpi_settings(environ);
  setenv("OMPI_MCA_io", "romio321", 0);  // as simapp does (app/mpi_session.cpp)
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  const int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  // A run whose every test skipped itself (no GPU here, say) says so, so that ctest reports it as
  // skipped (SKIP_REGULAR_EXPRESSION in tests/mpi/CMakeLists.txt), never as passed.
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  int ran = tests.successful_test_count() + tests.failed_test_count(), any_ran = 0;
  MPI_Allreduce(&ran, &any_ran, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_ran == 0 && tests.skipped_test_count() > 0)
    std::printf("simapp tests: every test of this run skipped itself\n");
  MPI_Finalize();
  return any_failed;
}
