#include "io/config/load_config.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/config/config_schema.hpp"

namespace simapp::io {
namespace {

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ =
        std::filesystem::temp_directory_path() / ("simapp_config_test_" + std::to_string(::getpid()) + "_" + test_name);
    std::filesystem::create_directories(dir_);
  }

  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Writes `text` to a file in this test's directory and returns its path.
  std::string write(const std::string& text, const std::string& name = "run.yaml") const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

/// The error load_config throws; a test failure when it throws none.
Error load_error(const std::string& path, const std::vector<std::string>& overrides = {}) {
  try {
    load_config(path, overrides);
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "load_config(\"" << path << "\") threw no error";
  return Error{ExitCode::success, "", ""};
}

void expect_bad_input(const Error& error, const std::string& where, const std::string& what) {
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_EQ(error.where(), where);
  EXPECT_EQ(std::string(error.what()), what);
}

std::string show(const ConfigValue& value) {
  std::ostringstream text;
  std::visit(
      [&](const auto& plain) {
        using T = std::remove_cvref_t<decltype(plain)>;
        if constexpr (std::is_same_v<T, IntegerList> || std::is_same_v<T, RealList>) {
          text << "[";
          for (std::size_t n = 0; n < plain.size(); ++n) text << (n > 0 ? ", " : "") << plain[n];
          text << "]";
        } else if constexpr (std::is_same_v<T, NameList>) {
          for (const std::string& name : plain) text << name << ";";
        } else {
          text << plain;
        }
      },
      value);
  return text.str();
}

/// The same key in YAML: "grid.nx", "5" → "grid:\n  nx: 5\n".
std::string nested_yaml(std::string_view path, const std::string& value) {
  std::string yaml;
  std::string indent;
  for (auto dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.')) {
    yaml += indent + std::string(path.substr(0, dot)) + ":\n";
    indent += "  ";
    path.remove_prefix(dot + 1);
  }
  return yaml + indent + std::string(path) + ": " + value + "\n";
}

/// A valid value for `key` other than its default, as text.
std::string other_value(const ConfigKey& key) {
  const ConfigValue fallback = key.get(RunSpec{});
  switch (key.type) {
    case ValueType::integer: return std::to_string(std::get<int>(fallback) + 3);
    case ValueType::real: return std::to_string(std::get<double>(fallback) * 2 + 0.5);
    case ValueType::string: return "elsewhere";
    case ValueType::date_time: return "1999-12-31T23:00:00Z";
    case ValueType::enumeration:
      return std::string(key.allowed.back() == std::get<std::string>(fallback) ? key.allowed.front()
                                                                               : key.allowed.back());
    case ValueType::integer_list: {
      const IntegerList list = std::get<IntegerList>(fallback);
      return "[" + std::to_string(list[0] + 2) + ", " + std::to_string(list[1] + 3) + "]";
    }
    case ValueType::real_list: {
      const RealList list = std::get<RealList>(fallback);
      return "[" + std::to_string(list[0] * 2 + 0.5) + ", " + std::to_string(list[1] * 2 + 0.5) + "]";
    }
    case ValueType::name_list: return std::string(key.allowed.back()) + "," + std::string(key.allowed.front());
  }
  return {};
}

/// A sounding file (background.sounding), written once a test process, by its absolute path.
std::string sounding_file() {
  static const std::string path = [] {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("simapp_config_test_sounding_" + std::to_string(::getpid()));
    std::ofstream(file) << "1000.0 300.0 14.0\n1000.0 302.0 10.0 5.0 -1.0\n";
    return file.string();
  }();
  return path;
}

/// A value other than the default of any key: other_value's, two names of a key that takes any
/// (physics.tracers), a sounding file that exists (background.sounding).
std::string other_value_of(const ConfigKey& key) {
  // The last cases need physics.microphysics (and the supercell the 3-D model): the first other one stands alone.
  if (key.path == "case") return std::string(key.allowed[1]);
  if (key.path == "background.sounding") return sounding_file();
  return key.type == ValueType::name_list && key.allowed.empty() ? "smoke,dye" : other_value(key);
}

ConfigValue value_of(const ConfigKey& key, const std::string& text) {
  switch (key.type) {
    case ValueType::integer: return std::stoi(text);
    case ValueType::real: return std::stod(text);
    case ValueType::integer_list: {
      int a = 0, b = 0;
      std::sscanf(text.c_str(), "[%d, %d]", &a, &b);
      return IntegerList{a, b};
    }
    case ValueType::real_list: {
      double a = 0, b = 0;
      std::sscanf(text.c_str(), "[%lf, %lf]", &a, &b);
      return RealList{a, b};
    }
    case ValueType::name_list: {
      NameList names;
      std::istringstream items(text);
      for (std::string name; std::getline(items, name, ',');) names.push_back(name);
      return names;
    }
    default: return text;
  }
}

/// What a key's largest value exceeds, as its refusal says it, if anything: more cells than a grid
/// may have (nx · ny · nz ≤ 2^40), or more rows of values than an array may have (FieldShape::rows).
std::string largest_exceeds(const ConfigKey& key) {
  if (key.path == "grid.ny") return " cells; at most 1099511627776 (2^40) are allowed";
  if (key.path == "grid.nz") return " rows of values; at most 2147483647 (2^31 - 1) are allowed";
  return "";
}

void expect_same_spec(const RunSpec& actual, const RunSpec& expected) {
  for (const ConfigKey& key : config_keys())
    EXPECT_EQ(key.get(actual), key.get(expected))
        << key.path << ": " << show(key.get(actual)) << " vs " << show(key.get(expected));
}

TEST_F(ConfigTest, AbsentKeysTakeTheirDefaults) {
  const std::string path = write("# only a comment and an empty section\ngrid:\n");
  const LoadedConfig config = load_config(path, {});
  EXPECT_EQ(config.source_path, path);
  expect_same_spec(config.spec, RunSpec{});
  EXPECT_EQ(config.spec.case_name, CaseName::thermal);
  EXPECT_EQ(config.spec.grid.nx, 400);
  EXPECT_EQ(config.spec.grid.nz, 200);
  EXPECT_EQ(config.spec.grid.xlen, 20000.0);
  EXPECT_EQ(config.spec.grid.zlen, 10000.0);
  EXPECT_EQ(config.spec.time.sim_time, 1000.0);
  EXPECT_EQ(config.spec.time.cfl, 1.5);
  EXPECT_EQ(config.spec.output.dir, "output");
  EXPECT_EQ(config.spec.output.every, 0.0);
  EXPECT_EQ(config.spec.output.progress_every, 0);
  EXPECT_EQ(config.spec.execution.backend, BackendChoice::automatic);
}

TEST_F(ConfigTest, ReadsAFullFile) {
  const LoadedConfig config = load_config(write(R"(case: density_current
grid:
  nx: 256
  nz: 128
  xlen: 51200
  zlen: 6.4e3
time:
  sim_time: 900
  cfl: 0.75
output:
  dir: results/dc
  every: 60.5
  progress_every: 100
execution:
  backend: host
)"),
                                          {});
  EXPECT_EQ(config.spec.case_name, CaseName::density_current);
  EXPECT_EQ(config.spec.grid.nx, 256);
  EXPECT_EQ(config.spec.grid.nz, 128);
  EXPECT_EQ(config.spec.grid.xlen, 51200.0);
  EXPECT_EQ(config.spec.grid.zlen, 6400.0);
  EXPECT_EQ(config.spec.time.sim_time, 900.0);
  EXPECT_EQ(config.spec.time.cfl, 0.75);
  EXPECT_EQ(config.spec.output.dir, "results/dc");
  EXPECT_EQ(config.spec.output.every, 60.5);
  EXPECT_EQ(config.spec.output.progress_every, 100);
  EXPECT_EQ(config.spec.execution.backend, BackendChoice::host);
}

TEST_F(ConfigTest, EveryKeyIsSettableFromTheFile) {
  for (const ConfigKey& key : config_keys()) {
    const std::string value = other_value_of(key);
    const LoadedConfig config = load_config(write(nested_yaml(key.path, value)), {});
    EXPECT_EQ(key.get(config.spec), value_of(key, value)) << key.path << " = " << value;
  }
}

TEST_F(ConfigTest, EveryKeyIsSettableFromAnOverride) {
  const std::string path = write("case: thermal\n");
  for (const ConfigKey& key : config_keys()) {
    const std::string value = other_value_of(key);
    const LoadedConfig config = load_config(path, {std::string(key.path) + "=" + value});
    EXPECT_EQ(key.get(config.spec), value_of(key, value)) << key.path << " = " << value;
  }
}

TEST_F(ConfigTest, OverrideSetsAKeyAbsentFromTheFile) {
  const LoadedConfig config =
      load_config(write("grid:\n  nx: 64\n"), {"output.dir=run 1", " execution.backend = cuda "});
  EXPECT_EQ(config.spec.grid.nx, 64);
  EXPECT_EQ(config.spec.output.dir, "run 1");
  EXPECT_EQ(config.spec.execution.backend, BackendChoice::cuda);
}

TEST_F(ConfigTest, LaterOverridesWin) {
  const LoadedConfig config = load_config(write("grid:\n  nx: 64\n"), {"grid.nx=8", "grid.nx=16"});
  EXPECT_EQ(config.spec.grid.nx, 16);
}

TEST_F(ConfigTest, OverriddenValuesAreCheckedToo) {
  const std::string path = write("grid:\n  nx: abc\n");
  expect_bad_input(load_error(path, {"grid.nx=16"}), path + ":2", "grid.nx: expected an integer, got 'abc'");
  const std::string valid = write("grid:\n  nx: 64\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"grid.nx=2", "grid.nx=16"}), "--set grid.nx=2", "grid.nx: must be >= 4, got 2");
}

TEST_F(ConfigTest, ResolvedYamlReloadsToTheSameSpec) {
  const LoadedConfig config = load_config(write("case: collision\ngrid:\n  xlen: 0.1\noutput:\n  dir: '~'\n"),
                                          {"time.sim_time=1e-3", "output.progress_every=7"});
  const LoadedConfig reloaded = load_config(write(config.resolved_yaml, "resolved.yaml"), {});
  expect_same_spec(reloaded.spec, config.spec);
  EXPECT_EQ(reloaded.resolved_yaml, config.resolved_yaml);
  EXPECT_NE(config.resolved_yaml.find("xlen: 0.1\n"), std::string::npos) << config.resolved_yaml;
  // Every key but those of the 3-D model (a 2-D run), perturbation.* (not given),
  // output.stats_every (not given: output.every's), physics.diffusivity (not given: the
  // viscosity), physics.diffusion_reference (the background), background.sounding (none), the tracers' (a run without
  // tracers) and the microphysics' cadence and rain (a dry run).
  for (const ConfigKey& key : config_keys()) {
    const auto dot = key.path.rfind('.');
    const std::string_view name = dot == std::string_view::npos ? key.path : key.path.substr(dot + 1);
    const bool listed = key.path != "grid.ny" && key.path != "grid.ylen" && !key.path.starts_with("perturbation.") &&
                        key.path != "output.stats_every" && key.path != "physics.diffusivity" &&
                        key.path != "physics.diffusion_reference" && !key.path.starts_with("physics.tracer") &&
                        key.path != "physics.rain" && key.path != "physics.microphysics_every" &&
                        key.path != "background.sounding";
    EXPECT_EQ(config.resolved_yaml.find("  " + std::string(name) + ": ") != std::string::npos ||
                  config.resolved_yaml.starts_with(std::string(name) + ": "),
              listed)
        << key.path << "\n"
        << config.resolved_yaml;
  }
  EXPECT_EQ(config.resolved_yaml.find("perturbation"), std::string::npos) << config.resolved_yaml;
}

TEST_F(ConfigTest, StatisticsAreTakenAtEverySnapshotUnlessTheirIntervalIsGiven) {
  const LoadedConfig snapshots = load_config(write("output:\n  every: 20\n"), {});
  EXPECT_EQ(snapshots.spec.output.stats_every, 20.0);
  EXPECT_EQ(snapshots.resolved_yaml.find("stats_every"), std::string::npos) << "resolved as before the key";
  EXPECT_EQ(load_config(write("output:\n  every: 20\n"), {"output.every=30"}).spec.output.stats_every, 30.0)
      << "after the overrides";
  EXPECT_EQ(load_config(write("time:\n  sim_time: 50\n"), {}).spec.output.stats_every, 0.0) << "no snapshots, none";
  for (const auto& [given, every] : {std::pair{"5", 5.0}, std::pair{"0", 0.0}, std::pair{"0:01:00", 60.0}}) {
    const LoadedConfig config =
        load_config(write(std::string("output:\n  every: 20\n  stats_every: ") + given + "\n"), {});
    EXPECT_EQ(config.spec.output.stats_every, every) << given;
    const LoadedConfig reloaded = load_config(write(config.resolved_yaml, "resolved.yaml"), {});
    EXPECT_EQ(reloaded.spec.output.stats_every, every) << config.resolved_yaml;
  }
  const std::string path = write("output:\n  stats_every: 0.01\n");
  expect_bad_input(load_error(path, {}), path + ":2",
                   "output.stats_every: 0.01 s is shorter than the time step dt = 0.166667 s (use 0 for no "
                   "statistics, or at least dt)");
}

TEST_F(ConfigTest, UnknownKeySuggestsTheNearest) {
  const std::string path = write("grid:\n  nx: 10\n  nxx: 5\n");
  expect_bad_input(load_error(path), path + ":3", "grid.nxx: unknown key (did you mean 'grid.nx'?)");
}

TEST_F(ConfigTest, UnknownSectionSuggestsTheNearest) {
  const std::string path = write("case: thermal\ngird:\n  nx: 10\n");
  expect_bad_input(load_error(path), path + ":2", "gird: unknown key (did you mean 'grid'?)");
}

TEST_F(ConfigTest, KeyInTheWrongSectionSuggestsItsSection) {
  const std::string path = write("nx: 10\n");
  expect_bad_input(load_error(path), path + ":1", "nx: unknown key (did you mean 'grid.nx'?)");
  const std::string nested = write("grid:\n  case: rest\n");
  expect_bad_input(load_error(nested), nested + ":2", "grid.case: unknown key (did you mean 'case'?)");
}

TEST_F(ConfigTest, UnknownKeyFarFromAnyGetsNoSuggestion) {
  const std::string path = write("grid:\n  nx: 10\ncolour: red\n");
  expect_bad_input(load_error(path), path + ":3", "colour: unknown key");
}

TEST_F(ConfigTest, WrongTypesAreRejected) {
  struct Case {
    std::string yaml;
    int line;
    std::string what;
  };
  const std::vector<Case> cases{
      {"grid:\n  nx: abc\n", 2, "grid.nx: expected an integer, got 'abc'"},
      {"grid:\n  nz: 3.5\n", 2, "grid.nz: expected an integer, got '3.5'"},
      {"grid:\n  nx: [1, 2]\n", 2, "grid.nx: expected an integer, got a list"},
      {"case: thermal\ngrid:\n  nx:\n  nz: 8\n", 3, "grid.nx: expected an integer, got nothing"},
      {"grid:\n  xlen: wide\n", 2, "grid.xlen: expected a number, got 'wide'"},
      {"time:\n  sim_time: .inf\n", 2, "time.sim_time: expected a number of seconds or H:MM:SS, got '.inf'"},
      {"output:\n  dir: {a: 1}\n", 2, "output.dir: expected a string, got a map"},
      {"case:\n  - thermal\n", 2, "case: expected a name, got a list"},
      {"case: thermal\ngrid: 5\n", 2, "grid: expected a map of keys, got '5'"},
      {"time: [1000]\n", 1, "time: expected a map of keys, got a list"},
  };
  for (const Case& c : cases) {
    const std::string path = write(c.yaml);
    SCOPED_TRACE(c.yaml);
    expect_bad_input(load_error(path), path + ":" + std::to_string(c.line), c.what);
  }
}

TEST_F(ConfigTest, OutOfRangeValuesAreRejected) {
  const std::string nx = write("grid:\n  nz: 8\n  nx: 2\n");
  expect_bad_input(load_error(nx), nx + ":3", "grid.nx: must be >= 4, got 2");
  const std::string xlen = write("grid:\n  xlen: 0\n");
  expect_bad_input(load_error(xlen), xlen + ":2", "grid.xlen: must be > 0, got 0");
  const std::string dir = write("output:\n  dir: ''\n");
  expect_bad_input(load_error(dir), dir + ":2", "output.dir: must not be empty");
}

TEST_F(ConfigTest, UnknownEnumValueSuggestsTheNearestAndListsAll) {
  const std::string path = write("case: thermo\n");
  expect_bad_input(
      load_error(path), path + ":1",
      "case: unknown value 'thermo' (did you mean 'thermal'?; valid: thermal, collision, "
      "gravity_waves, density_current, injection, rest, straka, moist_thermal, dry_bubble, moist_bubble, supercell)");
  const std::string backend = write("execution:\n  backend: gpu\n");
  expect_bad_input(load_error(backend), backend + ":2",
                   "execution.backend: unknown value 'gpu' (valid: auto, cuda, host)");
}

TEST_F(ConfigTest, DuplicateKeysAreRejected) {
  const std::string key = write("grid:\n  nx: 10\n  nx: 20\n");
  expect_bad_input(load_error(key), key + ":3", "grid.nx: duplicate key (first at line 2)");
  const std::string section = write("grid:\n  nx: 10\ntime:\n  sim_time: 5\ngrid:\n  nz: 10\n");
  expect_bad_input(load_error(section), section + ":5", "grid: duplicate key (first at line 1)");
}

TEST_F(ConfigTest, SyntaxErrorsNameTheLine) {
  const std::string path = write("case: thermal\ngrid:\n  nx: [1\n");
  const Error error = load_error(path);
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_TRUE(error.where().starts_with(path + ":")) << error.where();
  EXPECT_GT(std::stoi(error.where().substr(path.size() + 1)), 1) << error.where();
  EXPECT_TRUE(std::string(error.what()).starts_with("invalid YAML: ")) << error.what();
}

TEST_F(ConfigTest, EmptyConfigurationsAreRejected) {
  for (const std::string text : {"", "# nothing but a comment\n", "~\n"}) {
    const std::string path = write(text);
    expect_bad_input(load_error(path), path, "configuration is empty; expected a map of keys such as 'grid:'");
  }
}

TEST_F(ConfigTest, RootMustBeOneMap) {
  const std::string list = write("- case\n- grid\n");
  expect_bad_input(load_error(list), list + ":1", "expected a map of keys at the top level, got a list");
  const std::string scalar = write("thermal\n");
  expect_bad_input(load_error(scalar), scalar + ":1", "expected a map of keys at the top level, got 'thermal'");
  const std::string two = write("case: thermal\n---\ncase: rest\n");
  expect_bad_input(load_error(two), two + ":3", "expected one YAML document, got 2");
}

TEST_F(ConfigTest, BadOverridesNameTheArgument) {
  const std::string path = write("case: thermal\n");
  expect_bad_input(load_error(path, {"grid.nx"}), "--set grid.nx", "expected key=value, got 'grid.nx'");
  expect_bad_input(load_error(path, {"grid.nxx=5"}), "--set grid.nxx=5",
                   "grid.nxx: unknown key (did you mean 'grid.nx'?)");
  expect_bad_input(load_error(path, {"gird.nx=5"}), "--set gird.nx=5",
                   "gird.nx: unknown key (did you mean 'grid.nx'?)");
  expect_bad_input(load_error(path, {"grid.nx=abc"}), "--set grid.nx=abc", "grid.nx: expected an integer, got 'abc'");
  expect_bad_input(load_error(path, {"grid.nx=2"}), "--set grid.nx=2", "grid.nx: must be >= 4, got 2");
  expect_bad_input(
      load_error(path, {"case=thermo"}), "--set case=thermo",
      "case: unknown value 'thermo' (did you mean 'thermal'?; valid: thermal, collision, "
      "gravity_waves, density_current, injection, rest, straka, moist_thermal, dry_bubble, moist_bubble, supercell)");
  expect_bad_input(load_error(path, {"execution.backend=CUDA"}), "--set execution.backend=CUDA",
                   "execution.backend: unknown value 'CUDA' (did you mean 'cuda'?; valid: auto, cuda, host)");
  expect_bad_input(load_error(path, {"output.dir="}), "--set output.dir=", "output.dir: must not be empty");
  expect_bad_input(load_error(path, {"grid=5"}), "--set grid=5",
                   "grid: a section, not a key (keys: grid.nx, grid.ny, grid.nz, grid.xlen, grid.ylen, grid.zlen)");
}

TEST_F(ConfigTest, EveryNumberKeyRejectsValuesBelowItsRange) {
  const std::string path = write("case: thermal\n");
  for (const ConfigKey& key : config_keys()) {
    if (!key.minimum) continue;
    const double bound = key.minimum->value;
    std::vector<double> rejected{bound - 1};
    if (key.minimum->bound == Bound::exclusive) rejected.push_back(bound);
    for (const double value : rejected) {
      const std::string text = key.type == ValueType::integer        ? std::to_string(static_cast<int>(value))
                               : key.type == ValueType::integer_list ? "1," + std::to_string(static_cast<int>(value))
                               : key.type == ValueType::real_list    ? "1," + std::to_string(value)
                                                                     : std::to_string(value);
      const Error error = load_error(path, {std::string(key.path) + "=" + text});
      EXPECT_EQ(error.code(), ExitCode::bad_input) << key.path;
      EXPECT_TRUE(std::string(error.what()).starts_with(std::string(key.path) + ": must be "))
          << key.path << ": " << error.what();
    }
    // The lowest integer allowed (the bound itself when inclusive), a number just above it.
    const int lowest_integer = static_cast<int>(bound) + (key.minimum->bound == Bound::inclusive ? 0 : 1);
    const std::string lowest = key.type == ValueType::integer        ? std::to_string(lowest_integer)
                               : key.type == ValueType::integer_list ? "[1, " + std::to_string(lowest_integer) + "]"
                               : key.type == ValueType::real_list    ? "[1, " + std::to_string(bound + 0.5) + "]"
                                                                     : std::to_string(bound + 0.5);
    EXPECT_NO_THROW(load_config(path, {std::string(key.path) + "=" + lowest})) << key.path;
  }
}

TEST_F(ConfigTest, SecondsMayBeWrittenAsAClockTime) {
  const std::string path = write("execution:\n  wall_limit: 1:30:00\n");
  EXPECT_EQ(load_config(path, {}).spec.execution.wall_limit, 5400.0);
  EXPECT_EQ(load_config(path, {"execution.wall_limit=2-03:04:05"}).spec.execution.wall_limit,
            ((2 * 24 + 3) * 60 + 4) * 60 + 5.0);
  EXPECT_EQ(load_config(path, {"execution.wall_limit=90.5"}).spec.execution.wall_limit, 90.5);
  EXPECT_EQ(load_config(path, {"time.sim_time=0:10:00"}).spec.time.sim_time, 600.0);
  expect_bad_input(load_error(path, {"execution.wall_limit=1:60:00"}), "--set execution.wall_limit=1:60:00",
                   "execution.wall_limit: expected a number of seconds or H:MM:SS, got '1:60:00'");
  expect_bad_input(load_error(path, {"execution.wall_limit=10:00"}), "--set execution.wall_limit=10:00",
                   "execution.wall_limit: expected a number of seconds or H:MM:SS, got '10:00'");
  expect_bad_input(load_error(path, {"grid.nx=1:00:00"}), "--set grid.nx=1:00:00",
                   "grid.nx: expected an integer, got '1:00:00'");
  EXPECT_NE(load_config(path, {}).resolved_yaml.find("wall_limit: 5400\n"), std::string::npos);
}

TEST_F(ConfigTest, DomainsBeyondTheAtmosphereOrBeyondWhatADoubleCountsAreRefused) {
  const std::string path = write("case: thermal\n");
  // A neutral atmosphere ends where its Exner function reaches 0: z = c_p θ₀ / g.
  const double top = physics::cp * physics::theta0 / physics::gravity;
  EXPECT_NO_THROW(load_config(path, {"grid.zlen=" + std::to_string(0.99 * top)}));
  expect_bad_input(load_error(path, {"grid.zlen=40000"}), "--set grid.zlen=40000",
                   "grid.zlen: 40000 m is above the top of the thermal case's atmosphere (its hydrostatic pressure "
                   "falls to 0 below that height); use a lower domain");
  // A stratified one (gravity waves, N = 0.02 s⁻¹) has no such top.
  EXPECT_NO_THROW(load_config(path, {"case=gravity_waves", "grid.zlen=40000"}));
  // The domain's mass and energy overflow: they could never be reported or checkpointed.
  expect_bad_input(load_error(path, {"grid.xlen=1e308"}), "--set grid.xlen=1e308",
                   "grid.xlen: a domain of 1e+308 m x 10000 m holds more mass and energy than a double can count; use "
                   "a smaller domain");
  EXPECT_NO_THROW(load_config(path, {"grid.xlen=1e20"}));
}

/// The 3-D model's domain holds xlen · ylen · zlen of atmosphere: lengths a double holds each
/// can still give totals it cannot.
TEST_F(ConfigTest, A3dDomainWhoseTotalsOverflowIsRefusedNamingItsLongestSide) {
  const std::string path = write("case: thermal\ngrid:\n  nx: 8\n  ny: 4\n  nz: 4\n");
  expect_bad_input(load_error(path, {"grid.xlen=1e200", "grid.ylen=1e200"}), "--set grid.xlen=1e200",
                   "grid.xlen: a domain of 1e+200 m x 1e+200 m x 10000 m holds more mass and energy than a double can "
                   "count; use a smaller domain");
  expect_bad_input(load_error(path, {"grid.xlen=1e100", "grid.ylen=1e250"}), "--set grid.ylen=1e250",
                   "grid.ylen: a domain of 1e+100 m x 1e+250 m x 10000 m holds more mass and energy than a double can "
                   "count; use a smaller domain");
  EXPECT_NO_THROW(load_config(path, {"grid.xlen=1e100", "grid.ylen=1e100"}));
  EXPECT_NO_THROW(load_config(path, {"grid.ny=1", "grid.xlen=1e200", "grid.ylen=1e200"})) << "no y in 2-D";
}

/// A time within 1e-9 dt of a step's end is that end (solver/time/time_stepping.hpp), so a
/// sim_time below it is t = 0: no step to take (its one step of a subnormal dt overflowed the
/// hyperviscosity, K ∝ 1/dt, and "blew up").
TEST_F(ConfigTest, ASimTimeWithinRoundOffOfTheStartIsRefused) {
  const std::string path = write("case: thermal\n");  // dt = 0.166667 s
  for (const char* sim_time : {"1e-310", "1e-300", "1e-11"})
    expect_bad_input(load_error(path, {std::string("time.sim_time=") + sim_time}),
                     std::string("--set time.sim_time=") + sim_time,
                     fmt::format("time.sim_time: {} s is within round-off of t = 0 (less than 1e-09 of the time "
                                 "step dt = 0.166667 s), so the run has no step to take; give at least 1.66667e-10 s",
                                 sim_time));
  EXPECT_NO_THROW(load_config(path, {"time.sim_time=1e-9"}));
}

TEST_F(ConfigTest, IntegerListsComeAsAYamlListOrAnOverride) {
  using Ranks = std::array<int, 3>;
  EXPECT_EQ(load_config(write("parallel:\n  ranks: [3, 2]\n"), {}).spec.parallel.ranks, (Ranks{3, 1, 2}));
  EXPECT_EQ(load_config(write("case: rest\n"), {"parallel.ranks=4,1"}).spec.parallel.ranks, (Ranks{4, 1, 1}));
  EXPECT_EQ(load_config(write("case: rest\n"), {"parallel.ranks=[2, 1, 3]"}).spec.parallel.ranks, (Ranks{2, 1, 3}));
  const std::string one_item = write("parallel:\n  ranks: [3]\n");
  expect_bad_input(load_error(one_item), one_item + ":2",
                   "parallel.ranks: expected two or three integers, got 1 item(s)");
  const std::string four_items = write("parallel:\n  ranks: [1, 1, 1, 1]\n");
  expect_bad_input(load_error(four_items), four_items + ":2",
                   "parallel.ranks: expected two or three integers, got 4 item(s)");
  const std::string not_a_number = write("parallel:\n  ranks: [2, x]\n");
  expect_bad_input(load_error(not_a_number), not_a_number + ":2",
                   "parallel.ranks: expected two or three integers, got a list");
  expect_bad_input(load_error(write("case: rest\n", "valid.yaml"), {"parallel.ranks=2,-1,2"}),
                   "--set parallel.ranks=2,-1,2", "parallel.ranks: must be >= 0, got -1");
}

TEST_F(ConfigTest, OutputVariablesMustBeKnownAndListedOnce) {
  const std::string unknown = write("output:\n  variables: rho_prime,bogus\n");
  expect_bad_input(load_error(unknown), unknown + ":2",
                   "output.variables: unknown name 'bogus' (valid: rho_prime, u, v, w, theta_prime, p_prime, dens, "
                   "umom, vmom, wmom, rhot, rho_bar, theta_bar, p_bar, all)");
  const std::string path = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(path, {"output.variables=u,u"}), "--set output.variables=u,u",
                   "output.variables: 'u' is listed twice");
  expect_bad_input(load_error(path, {"output.variables=rhoo"}), "--set output.variables=rhoo",
                   "output.variables: unknown name 'rhoo' (did you mean 'rhot'?; valid: rho_prime, u, v, w, "
                   "theta_prime, p_prime, dens, umom, vmom, wmom, rhot, rho_bar, theta_bar, p_bar, all)");
  expect_bad_input(load_error(path, {"output.variables=u,v"}), "--set output.variables=u,v",
                   "output.variables: v is a field of the 3-D model (grid.ny > 1); this run is 2-D");
  EXPECT_EQ(load_config(path, {"output.variables=all"}).spec.output.variables,
            (std::vector<std::string>{"rho_prime", "u", "w", "theta_prime", "p_prime", "dens", "umom", "wmom", "rhot",
                                      "rho_bar", "theta_bar", "p_bar"}))
      << "all: the 2-D model's fields";
  EXPECT_EQ(load_config(path, {"grid.ny=4", "output.variables=all"}).spec.output.variables.size(), 14u);
  EXPECT_EQ(load_config(path, {"grid.ny=4"}).spec.output.variables,
            (std::vector<std::string>{"rho_prime", "u", "v", "w", "theta_prime"}))
      << "the 3-D model's default adds v";
  expect_bad_input(load_error(path, {"output.variables=u,,w"}), "--set output.variables=u,,w",
                   "output.variables: empty name in 'u,,w'");
  expect_bad_input(load_error(path, {"output.variables=all,u"}), "--set output.variables=all,u",
                   "output.variables: 'all' cannot be combined with other names");
}

TEST_F(ConfigTest, TimeStartIsADateAndTimeInUtc) {
  EXPECT_EQ(RunSpec{}.time.start, "2000-01-01T00:00:00Z");
  const std::string path = write("time:\n  start: 1850-07-04T12:30:00Z\n");
  const LoadedConfig config = load_config(path, {});
  EXPECT_EQ(config.spec.time.start, "1850-07-04T12:30:00Z");
  EXPECT_NE(config.resolved_yaml.find("  start: 1850-07-04T12:30:00Z\n"), std::string::npos) << config.resolved_yaml;
  EXPECT_EQ(load_config(path, {"time.start=2024-02-29"}).spec.time.start, "2024-02-29");
  const std::string leap = write("time:\n  start: 2023-02-29T00:00:00Z\n", "leap.yaml");
  expect_bad_input(load_error(leap), leap + ":2",
                   "time.start: '2023-02-29T00:00:00Z': day 29 is not in 2023-02 (e.g. 2000-01-01T00:00:00Z)");
  expect_bad_input(load_error(path, {"time.start=01/01/2000"}), "--set time.start=01/01/2000",
                   "time.start: '01/01/2000': expected an ISO 8601 date and time in UTC, YYYY-MM-DDTHH:MM:SSZ (e.g. "
                   "2000-01-01T00:00:00Z)");
  expect_bad_input(load_error(path, {"time.start=2000-01-01T00:00:00+01:00"}),
                   "--set time.start=2000-01-01T00:00:00+01:00",
                   "time.start: '2000-01-01T00:00:00+01:00': the zone +01:00 is not UTC: end the time with Z (or with "
                   "no zone) (e.g. 2000-01-01T00:00:00Z)");
}

TEST_F(ConfigTest, OutputVariablesAreReadIntoAList) {
  const std::string path = write("output:\n  variables: theta_prime, u\n");
  const LoadedConfig config = load_config(path, {});
  EXPECT_EQ(config.spec.output.variables, (NameList{"theta_prime", "u"}));
  EXPECT_NE(config.resolved_yaml.find("variables: theta_prime,u\n"), std::string::npos) << config.resolved_yaml;
  EXPECT_EQ(load_config(path, {"output.variables=all"}).spec.output.variables,
            (NameList{"rho_prime", "u", "w", "theta_prime", "p_prime", "dens", "umom", "wmom", "rhot", "rho_bar",
                      "theta_bar", "p_bar"}));
  EXPECT_EQ(RunSpec{}.output.variables, (NameList{"rho_prime", "u", "w", "theta_prime"}));
  const std::string empty = write("output:\n  variables: ''\n", "empty.yaml");
  expect_bad_input(load_error(empty), empty + ":2", "output.variables: must not be empty");
}

TEST_F(ConfigTest, NameListsAreReadFromAYamlListToo) {
  for (const std::string list : {"[theta_prime, u]", "\n    - theta_prime\n    - u"}) {
    SCOPED_TRACE(list);
    const std::string path = write("output:\n  variables: " + list + "\n");
    EXPECT_EQ(load_config(path, {}).spec.output.variables, (NameList{"theta_prime", "u"}));
  }
  EXPECT_EQ(load_config(write("case: thermal\n"), {"output.variables=[w, rhot]"}).spec.output.variables,
            (NameList{"w", "rhot"}));
  EXPECT_EQ(load_config(write("execution:\n  compare: [graph, eager]\n"), {}).spec.execution.compare,
            (std::vector<ExecutionMode>{ExecutionMode::graph, ExecutionMode::eager}));
  // Checked as the comma-separated text is, each item one name.
  const auto refused = [&](const std::string& list, const std::string& problem) {
    const std::string path = write("output:\n  variables: " + list + "\n", "refused.yaml");
    expect_bad_input(load_error(path), path + ":2", "output.variables: " + problem);
  };
  refused("[u, u]", "'u' is listed twice");
  refused(
      "[u, bogus]",
      "unknown name 'bogus' (valid: rho_prime, u, v, w, theta_prime, p_prime, dens, umom, vmom, wmom, rhot, rho_bar, "
      "theta_bar, p_bar, all)");
  refused("[]", "must not be empty");
  refused("[all, u]", "'all' cannot be combined with other names");
  refused("['u,w']", "one name an item of the list, got 'u,w'");
  refused("[[u]]", "expected names, got a list holding a list");
}

/// Kernels count an array's rows (variables × ny × nz with ghost cells) in an int: a grid whose state
/// would have more is refused at the key that makes them, one just below the limit is not.
TEST_F(ConfigTest, ArraysOfMoreRowsThanAnIntCountsAreRefused) {
  const std::string path = write("case: thermal\n");
  const std::vector<std::string> short_run{"time.sim_time=1e-3", "grid.nx=4"};
  auto grid = [&](int ny, int nz) {
    std::vector<std::string> overrides = short_run;
    overrides.push_back("grid.ny=" + std::to_string(ny));
    overrides.push_back("grid.nz=" + std::to_string(nz));
    return overrides;
  };
  // 5 variables × (30000 + 4) × (30000 + 5) rows of the 3-D state and its faces > 2^31 − 1.
  expect_bad_input(load_error(path, grid(30000, 30000)), "--set grid.ny=30000",
                   "grid.ny: 5 variables on 900270020 rows of cells (ny x nz with ghost cells) make 4501350100 rows "
                   "of values; at most 2147483647 (2^31 - 1) are allowed");
  EXPECT_NO_THROW(load_config(path, grid(20000, 20000)));  // 5 · 20004 · 20005 < 2^31
}

TEST_F(ConfigTest, EveryNumberKeyRejectsValuesAboveItsRange) {
  const std::string path = write("case: thermal\n");
  int keys_with_maximum = 0;
  for (const ConfigKey& key : config_keys()) {
    if (!key.maximum) continue;
    ++keys_with_maximum;
    const auto text = [&](double value) {
      return key.type == ValueType::integer ? std::to_string(static_cast<long long>(value)) : std::to_string(value);
    };
    const double above = key.type == ValueType::integer ? *key.maximum + 1 : *key.maximum * 1.5 + 1;
    const Error error = load_error(path, {std::string(key.path) + "=" + text(above)});
    EXPECT_EQ(error.code(), ExitCode::bad_input) << key.path;
    EXPECT_TRUE(std::string(error.what()).starts_with(std::string(key.path) + ": must be <= "))
        << key.path << ": " << error.what();
    // A short run, so that the largest grid is not refused for its step count.
    const std::vector<std::string> largest{"time.sim_time=1e-3", std::string(key.path) + "=" + text(*key.maximum)};
    if (const std::string refusal = largest_exceeds(key); !refusal.empty())
      EXPECT_NE(std::string(load_error(path, largest).what()).find(refusal), std::string::npos) << key.path;
    else
      EXPECT_NO_THROW(load_config(path, largest)) << key.path;
  }
  EXPECT_GE(keys_with_maximum, 3);
}

TEST_F(ConfigTest, CompressionLevelAboveNineIsRejected) {
  const std::string path = write("output:\n  compression: 10\n");
  expect_bad_input(load_error(path), path + ":2", "output.compression: must be <= 9, got 10");
  EXPECT_EQ(load_config(write("output:\n  compression: 9\n", "nine.yaml"), {}).spec.output.compression, 9);
}

TEST_F(ConfigTest, IntegersBeyondTheirRangeNameTheLimit) {
  const std::string path = write("grid:\n  nx: 3000000000\n");
  expect_bad_input(load_error(path), path + ":2", "grid.nx: must be <= 2147483643, got 3000000000");
  const std::string valid = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"grid.nz=2147483647"}), "--set grid.nz=2147483647",
                   "grid.nz: must be <= 2147483643, got 2147483647");
  expect_bad_input(load_error(valid, {"output.progress_every=99999999999999999999999"}),
                   "--set output.progress_every=99999999999999999999999",
                   "output.progress_every: must be <= 2147483647, got 99999999999999999999999");
  expect_bad_input(load_error(valid, {"grid.nx=-99999999999999999999999"}), "--set grid.nx=-99999999999999999999999",
                   "grid.nx: must be >= 4, got -99999999999999999999999");
}

TEST_F(ConfigTest, GridsWithMoreThan2To40CellsAreRejected) {
  const std::string path = write("grid:\n  nx: 1048577\n  nz: 1048576\n");
  expect_bad_input(load_error(path), path + ":2",
                   "grid.nx: 1048577 x 1048576 = 1099512676352 cells; at most 1099511627776 (2^40) are allowed");
  const std::string valid = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"grid.nz=2000000", "grid.nx=2000000"}), "--set grid.nx=2000000",
                   "grid.nx: 2000000 x 2000000 = 4000000000000 cells; at most 1099511627776 (2^40) are allowed");
  EXPECT_NO_THROW(load_config(valid, {"grid.nx=1048576", "grid.nz=1048576", "time.sim_time=1"}));
}

TEST_F(ConfigTest, RunsOfMoreThan2To31StepsAreRejected) {
  // Default grid: dx = dz = 50 m, dt = 1.5 · 50 / 450 s.
  const std::string sim_time = write("time:\n  sim_time: 1e20\n");
  expect_bad_input(load_error(sim_time), sim_time + ":2",
                   "time.sim_time: 1e+20 s at dt = 0.166667 s is 6e+20 steps; at most 2147483647 steps are allowed");
  const std::string grid = write("case: thermal\n", "grid.yaml");
  expect_bad_input(load_error(grid, {"grid.xlen=1e-15"}), "--set grid.xlen=1e-15",
                   "grid.xlen: 1e-15 m gives dt = 8.33333e-21 s, so time.sim_time = 1000 s is 1.2e+23 steps; at "
                   "most 2147483647 steps are allowed");
  expect_bad_input(load_error(grid, {"grid.nz=300000000"}), "--set grid.nz=300000000",
                   "grid.nz: 300000000 cells give dt = 1.11111e-07 s, so time.sim_time = 1000 s is 9000000000 "
                   "steps; at most 2147483647 steps are allowed");
  // dx = dz = 300 m: dt = 1 s exactly.
  const std::string exact = write("grid:\n  nx: 4\n  nz: 4\n  xlen: 1200\n  zlen: 1200\n", "exact.yaml");
  EXPECT_NO_THROW(load_config(exact, {"time.sim_time=2147483647"}));
  expect_bad_input(load_error(exact, {"time.sim_time=2147483648"}), "--set time.sim_time=2147483648",
                   "time.sim_time: 2147483648 s at dt = 1 s is 2147483648 steps; at most 2147483647 steps are allowed");
}

TEST_F(ConfigTest, OutputIntervalsShorterThanTheStepAreRejected) {
  const std::string path = write("case: thermal\noutput:\n  every: 1e-9\n");
  expect_bad_input(load_error(path), path + ":3",
                   "output.every: 1e-09 s is shorter than the time step dt = 0.166667 s (use 0 for no snapshots, or "
                   "at least dt)");
  const std::string valid = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"output.checkpoint_every=0.1"}), "--set output.checkpoint_every=0.1",
                   "output.checkpoint_every: 0.1 s is shorter than the time step dt = 0.166667 s (use 0 for no "
                   "checkpoints, or at least dt)");
  EXPECT_NO_THROW(load_config(valid, {"output.every=1e20", "output.checkpoint_every=1e300"}));
  EXPECT_NO_THROW(load_config(valid, {"output.every=0.16666666666666666"}));
}

TEST_F(ConfigTest, KeyGivenDottedAndNestedIsADuplicate) {
  const std::string dotted_first = write("grid.nx: 50\ncase: rest\ngrid:\n  nx: 40\n");
  expect_bad_input(load_error(dotted_first), dotted_first + ":4", "grid.nx: duplicate key (first at line 1)");
  const std::string nested_first = write("grid:\n  nx: 40\ngrid.nx: 50\n", "nested.yaml");
  expect_bad_input(load_error(nested_first), nested_first + ":3", "grid.nx: duplicate key (first at line 2)");
  EXPECT_EQ(load_config(write("grid.nx: 50\ngrid:\n  nz: 40\n", "both.yaml"), {}).spec.grid.nx, 50);
}

TEST_F(ConfigTest, FilesLargerThanOneMebibyteAreRefused) {
  const std::string head = "case: rest\n# ";
  const std::string at_limit = write(head + std::string((1 << 20) - head.size() - 1, 'x') + "\n");
  EXPECT_EQ(std::filesystem::file_size(at_limit), 1u << 20);
  EXPECT_EQ(load_config(at_limit, {}).spec.case_name, CaseName::rest);
  const std::string over = write(head + std::string(1 << 20, 'x') + "\n", "over.yaml");
  expect_bad_input(load_error(over), over, "configuration file is larger than 1 MiB");
}

TEST_F(ConfigTest, DirectoriesAndDevicesAreRefused) {
  expect_bad_input(load_error(dir_.string()), dir_.string(), "is a directory, not a configuration file");
  expect_bad_input(load_error("/dev/null"), "/dev/null", "is a device, not a configuration file");
}

/// Writes `text` into the named pipe `path` from another thread (which waits for a reader).
class PipeWriter {
 public:
  PipeWriter(const std::string& path, std::string text)
      : writer_([path, text = std::move(text)] {
          const int fd = ::open(path.c_str(), O_WRONLY);
          if (fd < 0) return;
          for (std::size_t done = 0; done < text.size();) {
            const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
            if (written <= 0) break;  // the reader stopped reading
            done += static_cast<std::size_t>(written);
          }
          ::close(fd);
        }) {}
  ~PipeWriter() { writer_.join(); }

 private:
  std::thread writer_;
};

TEST_F(ConfigTest, NamedPipesAreReadUpToTheLimit) {
  const auto previous = std::signal(SIGPIPE, SIG_IGN);  // the reader may close before the writer ends
  const std::string fifo = (dir_ / "config.fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    PipeWriter writer(fifo, "case: rest\ngrid:\n  nx: 40\n");
    EXPECT_EQ(load_config(fifo, {}).spec.grid.nx, 40);
  }
  {
    PipeWriter writer(fifo, "case: rest\n# " + std::string(2 << 20, 'x') + "\n");
    expect_bad_input(load_error(fifo), fifo, "configuration file is larger than 1 MiB");
  }
  std::signal(SIGPIPE, previous);
}

TEST_F(ConfigTest, UnopenablePathsAreInputErrors) {
  const std::string missing = (dir_ / "missing.yaml").string();
  expect_bad_input(load_error(missing), missing, "cannot read configuration file (No such file or directory)");
  const std::filesystem::path loop = dir_ / "loop.yaml";
  std::filesystem::create_symlink(dir_ / "other.yaml", loop);
  std::filesystem::create_symlink(loop, dir_ / "other.yaml");
  expect_bad_input(load_error(loop.string()), loop.string(),
                   "cannot read configuration file (Too many levels of symbolic links)");
  const std::string long_name = (dir_ / (std::string(300, 'n') + ".yaml")).string();
  expect_bad_input(load_error(long_name), long_name, "cannot read configuration file (File name too long)");
}

/// Caps this process's address space `extra` bytes above its present size while in scope, so
/// that a parser that allocates without end fails with std::bad_alloc instead of exhausting
/// the machine.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(rlim_t extra) {
    ::getrlimit(RLIMIT_AS, &previous_);
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    rlimit limit = previous_;
    limit.rlim_cur = std::min<rlim_t>(previous_.rlim_max, static_cast<rlim_t>(pages) * ::sysconf(_SC_PAGESIZE) + extra);
    ::setrlimit(RLIMIT_AS, &limit);
  }
  ~AddressSpaceLimit() { ::setrlimit(RLIMIT_AS, &previous_); }

 private:
  rlimit previous_{};
};

TEST_F(ConfigTest, StrayCommaIsInvalidYaml) {
  // yaml-cpp 0.7's LoadAll never returns for these (jbeder/yaml-cpp#1040): it adds empty
  // documents until memory runs out.
  const AddressSpaceLimit limit(1L << 30);
  for (const std::string text : {",", ",case: rest\n", "case: rest\n---\n,\n"}) {
    SCOPED_TRACE(text);
    const std::string path = write(text);
    try {
      load_config(path, {});
      ADD_FAILURE() << "no error";
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::bad_input);
      EXPECT_TRUE(error.where().starts_with(path + ":")) << error.where();
      EXPECT_EQ(std::string(error.what()), "invalid YAML: unexpected ','");
    } catch (const std::exception& error) {
      ADD_FAILURE() << "not a simapp::Error: " << error.what();
    }
  }
}

TEST_F(ConfigTest, ControlCharactersAreNamedWithTheirLineAndColumn) {
  // yaml-cpp 0.7 reports a NUL byte a line later, as "unknown escape character: \n".
  const std::string nul = write(std::string("case: rest\ngrid:\n  nx: 4") + '\0' + "\n  nz: 40\n");
  expect_bad_input(load_error(nul), nul + ":3",
                   "invalid YAML: a NUL byte at column 8; YAML text holds no control characters but tabs and line "
                   "breaks");
  const std::string escape = write("case: \"rest\x1b[31m\"\n", "escape.yaml");
  expect_bad_input(load_error(escape), escape + ":1",
                   "invalid YAML: control character \\x1b at column 12; YAML text holds no control characters but "
                   "tabs and line breaks");
}

TEST_F(ConfigTest, NestingBeyondTheParsersDepthIsNamed) {
  // yaml-cpp 0.7 says "bad file".
  for (const auto& [open, close] : {std::pair{"[", "]"}, std::pair{"{a: ", "}"}}) {
    SCOPED_TRACE(open);
    std::string nested = "case: rest\ngrid: ";
    for (int level = 0; level < 3000; ++level) nested += open;
    for (int level = 0; level < 3000; ++level) nested += close;
    const std::string path = write(nested + "\n", "nested.yaml");
    const Error error = load_error(path);
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_EQ(error.where(), path + ":2");
    EXPECT_TRUE(std::regex_match(error.what(), std::regex(R"(invalid YAML: lists and maps nested too deep \(the )"
                                                          R"(parser stops at depth \d+\))")))
        << error.what();
  }
}

TEST_F(ConfigTest, GarbageIsAlwaysAnInputError) {
  const AddressSpaceLimit limit(1L << 30);
  std::mt19937 random(12345);
  const std::string valid = "case: rest\ngrid:\n  nx: 40\n  nz: [1, 2]\noutput: {variables: 'u,w', every: 5}\n";
  constexpr char specials[] = "[]{}:,-?&*!|>'\"%@`#\n\t \\\0\xff";
  for (int n = 0; n < 300; ++n) {
    std::string text;
    if (n % 3 == 0) {
      text.resize(random() % 3000);
      for (char& c : text) c = static_cast<char>(random() % 256);
    } else {
      text = valid;
      for (int edit = 0; edit < 1 + n % 8; ++edit) {
        const char special = specials[random() % (sizeof specials - 1)];
        text.insert(text.begin() + static_cast<long>(random() % text.size()), special);
      }
    }
    const std::string path = write(text, "garbage.yaml");
    try {
      load_config(path, {});
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::bad_input) << n << ": " << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << n << ": not a simapp::Error: " << error.what();
    }
  }
}

TEST_F(ConfigTest, SchemaPathsAreUniqueAndFound) {
  for (const ConfigKey& key : config_keys()) {
    EXPECT_EQ(find_config_key(key.path), &key) << key.path;
    // An enumeration names its values; a name list may take any names (physics.tracers).
    if (key.type == ValueType::enumeration) {
      EXPECT_FALSE(key.allowed.empty()) << key.path;
    } else if (key.type != ValueType::name_list) {
      EXPECT_TRUE(key.allowed.empty()) << key.path;
    }
    EXPECT_TRUE(!key.maximum || key.type == ValueType::integer || key.type == ValueType::real) << key.path;
  }
  EXPECT_EQ(find_config_key("grid"), nullptr);
}

// The keys that reach beyond the 2-D model and the case's own bump (io/config/model_keys.hpp).

TEST_F(ConfigTest, GridNyIsOneAndYlenIsXlenUnlessGiven) {
  const LoadedConfig plain = load_config(write("case: thermal\n"), {});
  EXPECT_EQ(plain.spec.grid.ny, 1);
  EXPECT_EQ(plain.spec.grid.ylen, 20000.0);
  const LoadedConfig narrow = load_config(write("grid:\n  xlen: 5120\n", "narrow.yaml"), {});
  EXPECT_EQ(narrow.spec.grid.ylen, 5120.0);
  EXPECT_EQ(load_config(write("grid:\n  xlen: 5120\n", "narrow.yaml"), {"grid.xlen=640"}).spec.grid.ylen, 640.0);
  const LoadedConfig deep = load_config(write("grid:\n  xlen: 5120\n  ylen: 3000\n  ny: 1\n", "deep.yaml"), {});
  EXPECT_EQ(deep.spec.grid.ylen, 3000.0);
  EXPECT_EQ(deep.spec.grid.ny, 1);
  // A 2-D configuration resolves as it did before these keys: giving ny = 1 and ylen = xlen
  // changes nothing in the resolved YAML (the input_yaml of every file) or run.json.
  const std::string before = "case: collision\ngrid:\n  nx: 64\n  xlen: 6400\n";
  const std::string given = "case: collision\ngrid:\n  nx: 64\n  ny: 1\n  xlen: 6400\n  ylen: 6400\n";
  const std::string resolved = load_config(write(before, "before.yaml"), {}).resolved_yaml;
  EXPECT_EQ(load_config(write(given, "given.yaml"), {}).resolved_yaml, resolved);
  EXPECT_EQ(resolved.find("ny:"), std::string::npos) << resolved;
  EXPECT_EQ(resolved.find("ylen:"), std::string::npos) << resolved;
  // A ylen other than xlen is listed, and reloads.
  EXPECT_NE(deep.resolved_yaml.find("  ylen: 3000\n"), std::string::npos) << deep.resolved_yaml;
  EXPECT_EQ(deep.resolved_yaml.find("ny:"), std::string::npos) << deep.resolved_yaml;
  expect_same_spec(load_config(write(deep.resolved_yaml, "resolved.yaml"), {}).spec, deep.spec);
}

TEST_F(ConfigTest, TheDiffusionReferenceIsTheBackgroundUnlessGivenAndListedWhereItIsNot) {
  const LoadedConfig plain = load_config(write("physics:\n  viscosity: 500\n"), {});
  EXPECT_EQ(plain.spec.physics.reference, DiffusionReference::background);
  EXPECT_EQ(plain.resolved_yaml.find("diffusion_reference"), std::string::npos) << plain.resolved_yaml;
  const LoadedConfig initial =
      load_config(write("physics:\n  viscosity: 500\n  diffusion_reference: initial_state\n"), {});
  EXPECT_EQ(initial.spec.physics.reference, DiffusionReference::initial_state);
  EXPECT_NE(initial.resolved_yaml.find("  diffusion_reference: initial_state\n"), std::string::npos)
      << initial.resolved_yaml;
  expect_same_spec(load_config(write(initial.resolved_yaml, "resolved.yaml"), {}).spec, initial.spec);
  const std::string path = write("physics:\n  diffusion_reference: initial\n", "bad.yaml");
  expect_bad_input(load_error(path, {}), path + ":2",
                   "physics.diffusion_reference: unknown value 'initial' (valid: background, initial_state)");
}

TEST_F(ConfigTest, DiffusivityIsTheViscosityUnlessGiven) {
  const std::string straka = "case: straka\nphysics:\n  viscosity: 75\n";
  const LoadedConfig plain = load_config(write(straka, "straka.yaml"), {});
  EXPECT_EQ(plain.spec.physics.viscosity, 75.0);
  EXPECT_EQ(plain.spec.physics.diffusivity, 75.0) << "θ diffuses as before the key";
  EXPECT_EQ(load_config(write(straka, "straka.yaml"), {"physics.viscosity=10"}).spec.physics.diffusivity, 10.0)
      << "after the overrides";
  EXPECT_EQ(load_config(write("case: thermal\n"), {}).spec.physics.diffusivity, 0.0) << "no viscosity, none";
  const LoadedConfig supercell =
      load_config(write("physics:\n  viscosity: 500\n  diffusivity: 1500\n", "dcmip.yaml"), {});
  EXPECT_EQ(supercell.spec.physics.viscosity, 500.0);
  EXPECT_EQ(supercell.spec.physics.diffusivity, 1500.0);
  EXPECT_EQ(load_config(write(straka, "straka.yaml"), {"physics.diffusivity=0"}).spec.physics.diffusivity, 0.0);
  // Resolved as before the key where it is the viscosity; listed, and reloading, where it is not.
  const std::string given = "case: straka\nphysics:\n  viscosity: 75\n  diffusivity: 75\n";
  EXPECT_EQ(load_config(write(given, "given.yaml"), {}).resolved_yaml, plain.resolved_yaml);
  EXPECT_EQ(plain.resolved_yaml.find("diffusivity"), std::string::npos) << plain.resolved_yaml;
  EXPECT_NE(supercell.resolved_yaml.find("  diffusivity: 1500\n"), std::string::npos) << supercell.resolved_yaml;
  expect_same_spec(load_config(write(supercell.resolved_yaml, "resolved.yaml"), {}).spec, supercell.spec);
  const std::string valid = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"physics.diffusivity=-1"}), "--set physics.diffusivity=-1",
                   "physics.diffusivity: must be >= 0, got -1");
  const std::string negative = write("physics:\n  diffusivity: -1500\n", "negative.yaml");
  expect_bad_input(load_error(negative), negative + ":2", "physics.diffusivity: must be >= 0, got -1500");
}

TEST_F(ConfigTest, TheGridOfThe3DModelIsChecked) {
  const std::string fine = write("case: thermal\ngrid:\n  nx: 64\n  ny: 8\nexecution:\n  granularity: fine\n");
  EXPECT_EQ(load_config(fine, {}).spec.execution.granularity, Granularity::fine) << "every granularity runs in 3-D";
  const std::string valid = write("case: thermal\n", "valid.yaml");
  const LoadedConfig three_d = load_config(valid, {"grid.ny=2"});
  EXPECT_EQ(three_d.spec.grid.ny, 2);
  EXPECT_EQ(three_d.spec.grid.ylen, three_d.spec.grid.xlen) << "grid.ylen not given: grid.xlen";
  expect_bad_input(load_error(valid, {"grid.ny=0"}), "--set grid.ny=0", "grid.ny: must be >= 1, got 0");
  expect_bad_input(load_error(valid, {"grid.ylen=0"}), "--set grid.ylen=0", "grid.ylen: must be > 0, got 0");
  expect_bad_input(load_error(valid, {"grid.ylen=-3"}), "--set grid.ylen=-3", "grid.ylen: must be > 0, got -3");
}

TEST_F(ConfigTest, RanksTakeTwoNumbersOrThreeWithOneAlongYIn2D) {
  using Ranks = std::array<int, 3>;
  const std::string path = write("case: thermal\n");
  EXPECT_EQ(load_config(path, {"parallel.ranks=[2, 0, 3]"}).spec.parallel.ranks, (Ranks{2, 0, 3}));
  EXPECT_EQ(RunSpec{}.parallel.ranks, (Ranks{0, 0, 0}));
  // [px, 1, pz] is [px, pz]: the resolved YAML writes it so.
  const std::string three = write("parallel:\n  ranks: [3, 1, 2]\n", "three.yaml");
  const LoadedConfig config = load_config(three, {});
  EXPECT_EQ(config.spec.parallel.ranks, (Ranks{3, 1, 2}));
  EXPECT_NE(config.resolved_yaml.find("  ranks: [3, 2]\n"), std::string::npos) << config.resolved_yaml;
  EXPECT_EQ(load_config(write("parallel:\n  ranks: [3, 2]\n", "two.yaml"), {}).resolved_yaml, config.resolved_yaml);
  const std::string across_y = write("case: thermal\nparallel:\n  ranks: [2, 2, 1]\n", "across_y.yaml");
  expect_bad_input(load_error(across_y), across_y + ":3",
                   "parallel.ranks = [2, 2, 1]: py = 2 ranks along y, but a 2-D run (grid.ny = 1) has one; give [px, "
                   "pz] or [px, 1, pz]");
  expect_bad_input(load_error(path, {"parallel.ranks=1,4,1"}), "--set parallel.ranks=1,4,1",
                   "parallel.ranks = [1, 4, 1]: py = 4 ranks along y, but a 2-D run (grid.ny = 1) has one; give [px, "
                   "pz] or [px, 1, pz]");
}

TEST_F(ConfigTest, PerturbationKeysSetTheCasesBump) {
  const std::string path = write(
      "case: density_current\nperturbation:\n  center: [5000, 3000.5]\n  radii: [1000, .inf]\n"
      "  amplitude: -4.5\n");
  const LoadedConfig config = load_config(path, {});
  EXPECT_EQ(config.spec.perturbation.center, (std::vector<double>{5000.0, 3000.5}));
  EXPECT_EQ(config.spec.perturbation.radii, (std::vector<double>{1000.0, std::numeric_limits<double>::infinity()}));
  EXPECT_EQ(config.spec.perturbation.amplitude, -4.5);
  const Bump<2> bump = configured_bump<2>(config.spec);
  EXPECT_EQ(bump.x0, 5000.0);
  EXPECT_EQ(bump.z0, 3000.5);
  EXPECT_EQ(bump.xr, 1000.0);
  EXPECT_EQ(bump.zr, std::numeric_limits<double>::infinity());
  EXPECT_EQ(bump.amplitude, -4.5);
  // Listed when given, infinity as YAML's .inf, and reloaded to the same values.
  EXPECT_NE(config.resolved_yaml.find("perturbation:\n  center: [5000, 3000.5]\n  radii: [1000, .inf]\n  amplitude: "
                                      "-4.5\n"),
            std::string::npos)
      << config.resolved_yaml;
  const LoadedConfig reloaded = load_config(write(config.resolved_yaml, "resolved.yaml"), {});
  expect_same_spec(reloaded.spec, config.spec);
  EXPECT_EQ(reloaded.resolved_yaml, config.resolved_yaml);
  // Overrides: inf, +.inf and .Inf are infinity too; one key alone keeps the case's others.
  const std::string valid = write("case: thermal\n", "valid.yaml");
  const double inf = std::numeric_limits<double>::infinity();
  for (const std::string text : {"inf,500", "[+.inf, 500]", ".Inf, 500", "infinity,500"})
    EXPECT_EQ(load_config(valid, {"perturbation.radii=" + text}).spec.perturbation.radii,
              (std::vector<double>{inf, 500.0}))
        << text;
  const Bump<2> radii_only = configured_bump<2>(load_config(valid, {"perturbation.radii=inf,500"}).spec);
  EXPECT_EQ(radii_only.x0, 10000.0);
  EXPECT_EQ(radii_only.z0, 2000.0);
  EXPECT_EQ(radii_only.amplitude, 3.0);
}

TEST_F(ConfigTest, PerturbationKeysReadAsTheCasesOwnValuesWhenNotGiven) {
  // docs/model.md's table on a domain 8000 m wide.
  struct Expected {
    std::string name;
    std::string center, radii, amplitude;
  };
  const std::vector<Expected> table{
      {"thermal", "[4000, 2000]", "[2000, 2000]", "3"},           {"collision", "[4000, 2000]", "[2000, 2000]", "20"},
      {"density_current", "[4000, 5000]", "[4000, 2000]", "-20"}, {"straka", "[4000, 3000]", "[4000, 2000]", "-15"},
      {"gravity_waves", "[1000, 1000]", "[500, 500]", "0.01"},
  };
  for (const Expected& expected : table) {
    SCOPED_TRACE(expected.name);
    const LoadedConfig config = load_config(write("case: " + expected.name + "\ngrid:\n  xlen: 8000\n"), {});
    EXPECT_EQ(show(find_config_key("perturbation.center")->get(config.spec)), expected.center);
    EXPECT_EQ(show(find_config_key("perturbation.radii")->get(config.spec)), expected.radii);
    EXPECT_EQ(show(find_config_key("perturbation.amplitude")->get(config.spec)), expected.amplitude);
    EXPECT_FALSE(config.spec.perturbation.given());
    EXPECT_EQ(config.resolved_yaml.find("perturbation"), std::string::npos) << config.resolved_yaml;
  }
}

TEST_F(ConfigTest, PerturbationValuesAreChecked) {
  const std::string path = write("case: thermal\n");
  const auto refused = [&](const std::string& setting, const std::string& what) {
    expect_bad_input(load_error(path, {setting}), "--set " + setting, what);
  };
  refused("perturbation.center=1,2,3",
          "perturbation.center = [1, 2, 3]: three numbers [x, y, z] are for the 3-D model (grid.ny > 1); a 2-D run "
          "takes [x, z]");
  refused("perturbation.radii=[100, 200, inf]",
          "perturbation.radii = [100, 200, inf]: three numbers [x, y, z] are for the 3-D model (grid.ny > 1); a 2-D "
          "run takes [x, z]");
  EXPECT_EQ(load_config(path, {"grid.ny=4", "perturbation.center=1,2,3"}).spec.perturbation.center,
            (std::vector<double>{1, 2, 3}));
  refused("perturbation.center=1", "perturbation.center: expected two or three numbers, got 1 item(s)");
  refused("perturbation.center=inf,1", "perturbation.center: expected two or three numbers, got 'inf,1'");
  refused("perturbation.center=nan,1", "perturbation.center: expected two or three numbers, got 'nan,1'");
  refused("perturbation.radii=0,100", "perturbation.radii: must be > 0, got 0");
  refused("perturbation.radii=100,-5", "perturbation.radii: must be > 0, got -5");
  refused("perturbation.radii=-inf,100", "perturbation.radii: must be > 0, got -inf");
  refused("perturbation.radii=nan,100", "perturbation.radii: expected two or three numbers, got 'nan,100'");
  refused("perturbation.amplitude=.inf", "perturbation.amplitude: expected a number, got '.inf'");
  refused("perturbation.amplitude=warm", "perturbation.amplitude: expected a number, got 'warm'");
  const std::string list = write("perturbation:\n  center: [1, [2]]\n", "list.yaml");
  expect_bad_input(load_error(list), list + ":2", "perturbation.center: expected two or three numbers, got a list");
  const std::string yaml_inf = write("perturbation:\n  center: [.inf, 2]\n", "yaml_inf.yaml");
  expect_bad_input(load_error(yaml_inf), yaml_inf + ":2",
                   "perturbation.center: expected two or three numbers, got a list");
}

TEST_F(ConfigTest, PerturbationKeysOfACaseWithoutABumpAreRefusedNamingTheCase) {
  const std::string rest = write("case: rest\nperturbation:\n  amplitude: 3\n");
  expect_bad_input(load_error(rest), rest + ":3",
                   "perturbation.amplitude = 3: the rest case has no bump to configure (perturbation.* applies to "
                   "thermal, collision, gravity_waves, density_current, straka, moist_thermal, dry_bubble, "
                   "moist_bubble, supercell)");
  const std::string injection =
      write("case: injection\nperturbation:\n  radii: [500, 600]\n  center: [100, 200]\n", "injection.yaml");
  expect_bad_input(load_error(injection), injection + ":4",
                   "perturbation.center = [100, 200]: the injection case has no bump to configure (perturbation.* "
                   "applies to thermal, collision, gravity_waves, density_current, straka, moist_thermal, dry_bubble, "
                   "moist_bubble, supercell)");
  const std::string valid = write("case: thermal\n", "valid.yaml");
  expect_bad_input(load_error(valid, {"case=rest", "perturbation.radii=1,.inf"}), "--set perturbation.radii=1,.inf",
                   "perturbation.radii = [1, inf]: the rest case has no bump to configure (perturbation.* applies to "
                   "thermal, collision, gravity_waves, density_current, straka, moist_thermal, dry_bubble, "
                   "moist_bubble, supercell)");
  // gravity_waves' bump is its wave source: configurable like the others.
  const LoadedConfig waves = load_config(valid, {"case=gravity_waves", "perturbation.amplitude=0.02"});
  EXPECT_EQ(waves.spec.perturbation.amplitude, 0.02);
}

TEST_F(ConfigTest, ReadmeDocumentsEveryKey) {
  std::ifstream in(SIMAPP_INPUTS_README);
  ASSERT_TRUE(in) << SIMAPP_INPUTS_README;
  const std::string readme{std::istreambuf_iterator<char>(in), {}};
  for (const ConfigKey& key : config_keys())
    EXPECT_NE(readme.find("| `" + std::string(key.path) + "` |"), std::string::npos) << key.path;
}

TEST_F(ConfigTest, ReadmeGivesEveryNameKeysDefaultAndAllowedNamesAsTheSchemaHasThem) {
  std::ifstream in(SIMAPP_INPUTS_README);
  ASSERT_TRUE(in) << SIMAPP_INPUTS_README;
  const std::string readme{std::istreambuf_iterator<char>(in), {}};
  for (const ConfigKey& key : config_keys()) {
    if (key.type != ValueType::enumeration) continue;
    // | `key` | name | unit | `default` | `a`, `b`, … | meaning |
    std::string allowed;
    for (const std::string_view name : key.allowed)
      allowed += (allowed.empty() ? "`" : ", `") + std::string(name) + "`";
    const std::string row = "| `" + std::string(key.path) + "` | name | – | `" +
                            std::get<std::string>(key.get(RunSpec{})) + "` | " + allowed + " | ";
    EXPECT_NE(readme.find(row), std::string::npos) << "inputs/README.md has no row starting " << row;
  }
}

}  // namespace
}  // namespace simapp::io

namespace simapp::io {
namespace {

TEST_F(ConfigTest, BackgroundSoundingIsReadFromAFileBesideTheConfiguration) {
  std::filesystem::create_directories(dir_ / "soundings");
  write("1000.0 300.0 14.0\n1000.0 302.0 10.0 5.0 -1.0\n3000.0 310.0 4.0 9.0 1.0\n", "soundings/input_sounding");
  const std::string path = write("case: rest\nbackground:\n  sounding: soundings/input_sounding\n");
  const LoadedConfig config = load_config(path, {});
  ASSERT_TRUE(config.spec.background.sounding.has_value());
  EXPECT_EQ(config.spec.background.sounding->surface_pressure, 1.0e5);
  EXPECT_EQ(config.spec.background.sounding->levels.size(), 2u);
  EXPECT_EQ(config.spec.background.sounding->levels[1].vapour, 0.004);
  EXPECT_NE(config.resolved_yaml.find("sounding: soundings/input_sounding"), std::string::npos);
  // A broken line names the file and the line; given with --set, the path is the working directory's.
  write("1000.0 300.0 14.0\n1000.0 302.0 ten 5.0 -1.0\n", "soundings/broken");
  const Error broken = load_error(path, {"background.sounding=" + (dir_ / "soundings/broken").string()});
  EXPECT_EQ(broken.code(), ExitCode::bad_input);
  EXPECT_EQ(broken.where(), (dir_ / "soundings/broken").string() + ":2");
  const Error missing = load_error(write("case: rest\nbackground:\n  sounding: nowhere\n"));
  EXPECT_EQ(missing.code(), ExitCode::bad_input);
  EXPECT_NE(missing.where().find("nowhere"), std::string::npos);
}

}  // namespace
}  // namespace simapp::io
