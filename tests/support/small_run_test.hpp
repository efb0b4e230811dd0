#pragma once
/// Runs of the real simapp binary on the small thermal case (40 × 20 cells, host backend) in a
/// test's own directory, on one rank or several under mpiexec, with helpers for its times and
/// its output directory.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tests/support/binary_test.hpp"
#include "tests/support/launch_environment.hpp"

namespace simapp::testing {

class SmallRunTest : public BinaryTest {
 public:
  /// The time step of the small case, s (1.5 · 500 m / 450 m/s).
  static constexpr double dt = 1.5 * 500.0 / 450.0;

 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    std::ofstream(directory_ / "case.yaml") << "case: thermal\ngrid:\n  nx: 40\n  nz: 20\n";
  }

  /// The command that starts a program on `ranks` MPI ranks (1: without mpiexec) with the
  /// variables `environment` ("NAME=value ..."), up to the program.
  static std::string launcher(int ranks, const std::string& environment = "") {
    // A clean environment (this test process is an MPI singleton whose variables would confuse
    // a nested mpiexec); Open MPI allowed to run as root (CI does) and more ranks than cores.
    // The machine's own Open MPI and PMIx settings (plm=isolated where there is no rsh agent,
    // say) are kept.
    if (ranks == 1) return "env OMP_NUM_THREADS=1 " + environment;
    return "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
           "OMPI_MCA_rmaps_base_oversubscribe=1 " +
           launch_environment + environment + std::string(SIMAPP_MPIEXEC) + " -n " + std::to_string(ranks) + " ";
  }

  /// The simapp binary under test: SIMAPP_TEST_BINARY when set (to run these tests against
  /// another build), else the one built with them.
  static std::string binary() {
    const char* other = std::getenv("SIMAPP_TEST_BINARY");
    return other != nullptr && *other != '\0' ? other : SIMAPP_BINARY;
  }

  /// The command line of simapp on the small case with `arguments`.
  static std::string command(const std::string& arguments, int ranks = 1) {
    return launcher(ranks) + binary() + " case.yaml --backend host " + arguments;
  }

  /// `err` without the notices Open MPI's helper processes print when a signal reaches them
  /// ("(null): Forwarding signal 25 to job", where a singleton's daemon meets a file-size limit).
  static std::string without_launcher_notices(const std::string& err) {
    static const std::regex notice(R"(^[^\n]*: Forwarding signal \d+ to job\n)", std::regex::multiline);
    return std::regex_replace(err, notice, "");
  }

  /// `command(arguments, ranks)` under a file-size limit of `kib` KiB on rank `limited_rank`
  /// (-1: on every rank). MPI is kept off shared-memory files, which the limit would break.
  static std::string command_with_file_limit(const std::string& arguments, int ranks, int kib, int limited_rank = -1) {
    const std::string rank = std::to_string(limited_rank);
    const std::string limit = "sh -c 'if [ " + rank + " = -1 ] || [ \"${OMPI_COMM_WORLD_RANK:-0}\" = " + rank +
                              " ]; then exec prlimit --fsize=" + std::to_string(kib * 1024) +
                              " \"$0\" \"$@\"; fi; exec \"$0\" \"$@\"' ";
    const std::string environment =
        std::string("PMIX_MCA_gds=hash ") + (ranks == 1 ? "OMPI_MCA_btl=self " : "OMPI_MCA_btl=self,tcp ");
    return launcher(ranks, environment) + limit + binary() + " case.yaml --backend host " + arguments;
  }

  /// Runs simapp on the small case on `ranks` MPI ranks.
  Outcome simapp(const std::string& arguments, int ranks = 1) const { return run(command(arguments, ranks)); }

  /// `seconds` as text that reads back to the same double.
  static std::string text(double seconds) {
    std::ostringstream out;
    out.precision(17);
    out << seconds;
    return out.str();
  }
  /// sim_time of `steps` steps.
  static std::string sim_time(int steps) { return text(steps * dt); }
  /// An output interval of `steps` steps.
  static std::string every(int steps) { return text(steps * dt); }

  std::filesystem::path out() const { return directory_ / "out"; }
};

}  // namespace simapp::testing
