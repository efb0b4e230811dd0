/// What the command line tells a user and what a run records of where it came from, through the
/// real binary: --help's examples, exit codes and pointer to the documentation; --print-config's
/// YAML, which simapp runs back as the same configuration; the compiler, flags and library
/// versions in the header and run.json, against the compiler's own macros, HDF5's and MPI's own
/// answers; the machine's state in --mode compare's and --profile's reports and files.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/config/config_schema.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;
using testing::Outcome;
using Json = nlohmann::json;

class HelpAndProvenanceTest : public testing::SmallRunTest {
 protected:
  /// `arguments` for simapp alone, no configuration put first.
  Outcome simapp_alone(const std::string& arguments) const {
    return run("env OMP_NUM_THREADS=1 " + binary() + " " + arguments);
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(directory_ / name) << text; }
};

TEST_F(HelpAndProvenanceTest, HelpShowsWholeCommandsTheExitCodesAndWhereTheDocumentationIs) {
  const Outcome outcome = simapp_alone("--help");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\nExamples:\n  simapp inputs/case.yaml )"))) << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\n  mpirun -n 4 simapp inputs/\S+\.yaml)"))) << outcome.out;
  EXPECT_TRUE(std::regex_search(outcome.out, std::regex(R"(\n  simapp inputs/case.yaml --print-config > )")))
      << outcome.out;
  // The exit codes as docs/usage.md and foundation/error.hpp define them.
  for (const char* code : {R"(\n  0  success)", R"(\n  1  internal error)", R"(\n  2  bad input)",
                           R"(\n  3  I/O error)", R"(\n  4  numerical failure)", R"(\n  5  interrupted)"})
    EXPECT_TRUE(std::regex_search(outcome.out, std::regex(code))) << code << " not in " << outcome.out;
  EXPECT_NE(outcome.out.find("docs/usage.md"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("--print-config"), std::string::npos) << outcome.out;
}

TEST_F(HelpAndProvenanceTest, PrintConfigListsEveryKeyAndRunsBackAsTheSameConfiguration) {
  const std::string overrides =
      "--set grid.nx=60 --set time.cfl=0.9 --set time.sim_time=10 --set output.every=5 --set output.dir=first";
  const Outcome printed = simapp("--print-config " + overrides);
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(printed.err, "");
  EXPECT_FALSE(fs::exists(directory_ / "first")) << "--print-config runs nothing";
  // Every key of the schema, each once (background.sounding where one is given); the given values
  // and the defaults.
  for (const io::ConfigKey& key : io::config_keys()) {
    if (key.path == "background.sounding") continue;
    const std::string name(key.path.substr(key.path.rfind('.') + 1));
    const std::string indent = key.path.find('.') == std::string_view::npos ? "" : "  ";
    EXPECT_TRUE(std::regex_search(printed.out, std::regex("(^|\n)" + indent + name + ": "))) << key.path << " not in\n"
                                                                                             << printed.out;
  }
  EXPECT_TRUE(std::regex_search(printed.out, std::regex("\n  nx: 60\n"))) << printed.out;
  EXPECT_TRUE(std::regex_search(printed.out, std::regex("\n  cfl: 0.9\n"))) << printed.out;
  EXPECT_TRUE(std::regex_search(printed.out, std::regex("\n  ny: 1\n"))) << "a default: " << printed.out;
  EXPECT_TRUE(std::regex_search(printed.out, std::regex("\n  amplitude: 3\n"))) << "the case's bump: " << printed.out;

  // The printed file is a configuration: printing it again gives it back, and it runs as the
  // original does.
  write("printed.yaml", printed.out);
  const Outcome again = run("env OMP_NUM_THREADS=1 " + binary() + " printed.yaml --print-config");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, printed.out);
  ASSERT_EQ(simapp(overrides).exit_code, 0);
  const Outcome second =
      run("env OMP_NUM_THREADS=1 " + binary() + " printed.yaml --backend host --set output.dir=second");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  Json first_config = Json::parse(testing::read_text(directory_ / "first/run.json"))["config"];
  Json second_config = Json::parse(testing::read_text(directory_ / "second/run.json"))["config"];
  EXPECT_EQ(second_config["output"]["dir"], "second");
  second_config["output"]["dir"] = "first";
  // perturbation.* given (the case's own values) in the printed file, not in the original.
  second_config.erase("perturbation");
  EXPECT_EQ(second_config, first_config);
  EXPECT_EQ(Json::parse(testing::read_text(directory_ / "second/run.json"))["d_te"],
            Json::parse(testing::read_text(directory_ / "first/run.json"))["d_te"]);
}

TEST_F(HelpAndProvenanceTest, PrintConfigOfThe3dModelAndOfACaseWithoutABumpReadsBack) {
  for (const std::string& config : {std::string("case: thermal\ngrid: {nx: 12, ny: 8, nz: 12}\n"),
                                    std::string("case: rest\ngrid: {nx: 12, nz: 12}\n")}) {
    write("given.yaml", config);
    const Outcome printed = run(binary() + " given.yaml --print-config");
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    write("printed.yaml", printed.out);
    const Outcome again = run(binary() + " printed.yaml --print-config");
    ASSERT_EQ(again.exit_code, 0) << config << again.err;
    EXPECT_EQ(again.out, printed.out);
    EXPECT_EQ(run(binary() + " printed.yaml --validate --backend host").exit_code, 0) << printed.out;
  }
}

TEST_F(HelpAndProvenanceTest, PrintConfigOfABadConfigurationIsTheUsualOneLineError) {
  const Outcome outcome = simapp("--print-config --set grid.nx=abc");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: --set grid\\.nx=abc: [^\n]*\n"))) << outcome.err;
  EXPECT_EQ(outcome.out, "");
}

/// The compiler that built this test, as CMake names it, from the compiler's own macros; the
/// same compiler builds simapp.
std::string this_compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GNU {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "";
#endif
}

std::string hdf5_version() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return fmt::format("{}.{}.{}", major, minor, release);
}

/// MPI's own text (MPI_Get_library_version may be called before MPI_Init).
std::string mpi_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

TEST_F(HelpAndProvenanceTest, TheHeaderAndRunJsonNameTheCompilerFlagsAndLibraries) {
  const std::string compiler = this_compiler();
  ASSERT_FALSE(compiler.empty()) << "a compiler this test does not know";
  const Outcome outcome =
      simapp("--set time.sim_time=" + sim_time(2) + " --set output.every=" + every(2) + " --set output.dir=out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string mpi = mpi_version();
  const std::string mpi_first = mpi.substr(0, mpi.find_first_of(",\n"));
  EXPECT_TRUE(std::regex_search(
      outcome.out,
      std::regex("\n  build     " + compiler + ", " SIMAPP_TEST_BUILD_TYPE ", C\\+\\+ [^\n]*-ffp-contract=off")))
      << outcome.out;
  EXPECT_NE(outcome.out.find("\n  libraries HDF5 " + hdf5_version()), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(", MPI " + mpi_first + ", "), std::string::npos) << mpi_first << "\n" << outcome.out;

  const Json build = Json::parse(testing::read_text(out() / "run.json"))["build"];
  EXPECT_EQ(build["compiler"], compiler);
  EXPECT_EQ(build["build_type"], SIMAPP_TEST_BUILD_TYPE);
  EXPECT_NE(build["cxx_flags"].get<std::string>().find("-ffp-contract=off"), std::string::npos) << build;
  EXPECT_TRUE(build["hdf5"].get<std::string>().starts_with(hdf5_version())) << build;
  EXPECT_EQ(build["mpi"].get<std::string>(), mpi.substr(0, mpi.find_last_not_of(std::string(" \t\r\n\0", 5)) + 1));
  EXPECT_TRUE(build["native"].is_boolean());
}

/// Expects a machine state of the host backend taken while the test ran: the load within what
/// /proc/loadavg said before and after (and its moves between), the node's CPUs, no GPU.
void expect_host_machine_state(const Json& state, double load_before, double load_after) {
  ASSERT_TRUE(state["load_average"].is_array()) << state;
  const double load = state["load_average"][0].get<double>();
  const double slack = 1.0 + 0.25 * std::max(load_before, load_after);
  EXPECT_GE(load, std::min(load_before, load_after) - slack) << state;
  EXPECT_LE(load, std::max(load_before, load_after) + slack) << state;
  EXPECT_EQ(state["cpus_online"], sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_TRUE(state["gpu"].is_null()) << state;
}

double load_now() {
  std::ifstream in("/proc/loadavg");
  double load = -1.0;
  in >> load;
  return load;
}

TEST_F(HelpAndProvenanceTest, CompareAndProfileRecordTheMachinesStateBeforeAndAfter) {
  if (!fs::exists("/proc/loadavg")) GTEST_SKIP() << "no /proc/loadavg on this machine";
  const double before = load_now();
  const Outcome compare = simapp(
      "--mode compare --set execution.compare=eager,graph --set execution.repeats=1 "
      "--set time.sim_time=" +
      sim_time(4) + " --set output.dir=out");
  const Outcome profile = simapp("--profile --set output.dir=profile");
  const double after = load_now();
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  ASSERT_EQ(profile.exit_code, 0) << profile.err;
  const std::regex line(R"(^machine at the (start|end): load \d+\.\d\d \d+\.\d\d \d+\.\d\d on \d+ CPUs, [^\n]*; )"
                        R"(GPU none \(host backend\)$)",
                        std::regex::multiline);
  for (const Outcome* outcome : {&compare, &profile})
    EXPECT_EQ(std::distance(std::sregex_iterator(outcome->out.begin(), outcome->out.end(), line), {}), 2)
        << outcome->out;
  for (const fs::path& report : {out() / "timing.json", directory_ / "profile/profile.json"}) {
    const Json machine = Json::parse(testing::read_text(report))["machine"];
    expect_host_machine_state(machine["start"], before, after);
    expect_host_machine_state(machine["end"], before, after);
    EXPECT_EQ(Json::parse(testing::read_text(report))["build"]["compiler"], this_compiler()) << report;
  }
}

}  // namespace
}  // namespace simapp
