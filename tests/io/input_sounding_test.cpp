/// WRF's input_sounding files (io/config/input_sounding.hpp): a file laid out as WRF's ideal
/// cases' (a surface line, then a level a line, Fortran-style columns) reads in SI units, and each
/// way a file can be wrong is refused with one line naming the file and the line.
#include "io/config/input_sounding.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "foundation/error.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

/// A sounding in the layout of WRF's em_quarter_ss case: the surface line, then levels from
/// 250 m up, q_v drying out aloft, a wind turning with height; a blank line among the levels
/// and one at the end, as such files often have.
constexpr const char* supercell_sounding = R"( 1000.00       300.00    14.00
  250.0000   300.4500    14.00000    -7.80000    -3.90000
  750.0000   301.2500    13.50000    -6.80000    -3.90000

 1250.0000   302.4000    12.50000    -5.10000    -3.90000
 2000.0000   3.05E+02     1.0e1       0.00000     0.00000
12000.0000   343.0000     0.00000     15.0000     +2.5000

)";

class InputSoundingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("simapp_input_sounding_test_" + std::to_string(::getpid()) + "_" + test_name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `text` to `name` in this test's directory and returns its path.
  fs::path write(const std::string& text, const std::string& name = "input_sounding") const {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  /// The bad-input Error reading `text` gives, as "where: what"; a failure when there is none.
  std::string refusal(const std::string& text) const {
    const fs::path path = write(text);
    try {
      read_input_sounding(path);
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::bad_input) << error.what();
      return error.where() + ": " + error.what();
    }
    ADD_FAILURE() << "no error for\n" << text;
    return "";
  }

  /// `where` in this test's file: "DIR/input_sounding:LINE".
  std::string at(int line) const { return (dir_ / "input_sounding").string() + ":" + std::to_string(line); }

  fs::path dir_;
};

TEST_F(InputSoundingTest, AWrfSoundingReadsInSiUnits) {
  const InputSounding sounding = read_input_sounding(write(supercell_sounding));
  EXPECT_EQ(sounding.surface_pressure, 100000.0);  // 1000 hPa
  EXPECT_EQ(sounding.surface_theta, 300.0);
  EXPECT_EQ(sounding.surface_vapour, 0.014);  // 14 g/kg
  ASSERT_EQ(sounding.levels.size(), 5u);
  const SoundingLevel& first = sounding.levels.front();
  EXPECT_EQ(first.height, 250.0);
  EXPECT_EQ(first.theta, 300.45);
  EXPECT_EQ(first.vapour, 0.014);
  EXPECT_EQ(first.u, -7.8);
  EXPECT_EQ(first.v, -3.9);
  EXPECT_EQ(sounding.levels[1].vapour, 0.0135);
  EXPECT_EQ(sounding.levels[2].height, 1250.0) << "after the blank line";
  EXPECT_EQ(sounding.levels[3].theta, 305.0) << "an exponent";
  EXPECT_EQ(sounding.levels[3].vapour, 0.01);
  const SoundingLevel& top = sounding.levels.back();
  EXPECT_EQ(top.height, 12000.0);
  EXPECT_EQ(top.vapour, 0.0);
  EXPECT_EQ(top.u, 15.0);
  EXPECT_EQ(top.v, 2.5) << "a leading +";
}

TEST_F(InputSoundingTest, TheTextOfAFileParsesAsTheFileReads) {
  const fs::path path = write(supercell_sounding);
  const InputSounding parsed = parse_input_sounding(supercell_sounding, path);
  const InputSounding read = read_input_sounding(path);
  EXPECT_EQ(parsed.surface_pressure, read.surface_pressure);
  ASSERT_EQ(parsed.levels.size(), read.levels.size());
  for (std::size_t l = 0; l < read.levels.size(); ++l) {
    EXPECT_EQ(parsed.levels[l].height, read.levels[l].height);
    EXPECT_EQ(parsed.levels[l].v, read.levels[l].v);
  }
  const InputSounding windows = parse_input_sounding("1000 300 14\r\n250 300.5 14 -7.8 -3.9\r\n", path);
  ASSERT_EQ(windows.levels.size(), 1u) << "CR LF line ends";
  EXPECT_EQ(windows.levels[0].v, -3.9);
}

TEST_F(InputSoundingTest, AFileThatCannotBeReadIsRefusedByName) {
  const fs::path missing = dir_ / "no_such_sounding";
  try {
    read_input_sounding(missing);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_EQ(error.where(), missing.string());
    EXPECT_EQ(std::string(error.what()), "cannot read the sounding (No such file or directory)");
  }
  try {
    read_input_sounding(dir_);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.where(), dir_.string());
    EXPECT_EQ(std::string(error.what()), "not a regular file: a sounding is a text file");
  }
}

TEST_F(InputSoundingTest, ALineOfTooFewOrTooManyNumbersIsRefusedAtItsLine) {
  EXPECT_EQ(refusal("1000 300\n250 300 14 0 0\n"),
            at(1) +
                ": the surface line holds 3 numbers, the surface pressure (hPa), θ (K) and q_v (g/kg); this one "
                "holds 2");
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 0 0\n\n750 301 13 0\n"),
            at(4) + ": a level holds 5 numbers, height (m), θ (K), q_v (g/kg), u and v (m/s); this line holds 4");
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 0 0 0\n"),
            at(2) + ": a level holds 5 numbers, height (m), θ (K), q_v (g/kg), u and v (m/s); this line holds 6");
}

TEST_F(InputSoundingTest, AWordThatIsNotANumberIsRefusedAtItsLine) {
  EXPECT_EQ(refusal("1000 300 14\n250 300 fourteen 0 0\n"), at(2) + ": 'fourteen' is not a finite number");
  EXPECT_EQ(refusal("1000hPa 300 14\n250 300 14 0 0\n"), at(1) + ": '1000hPa' is not a finite number");
  EXPECT_EQ(refusal("1000 300 14\n250 nan 14 0 0\n"), at(2) + ": 'nan' is not a finite number");
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 1e999 0\n"), at(2) + ": '1e999' is not a finite number");
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 0 1,5\n"), at(2) + ": '1,5' is not a finite number");
}

TEST_F(InputSoundingTest, HeightsThatDoNotIncreaseAreRefusedAtTheLevel) {
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 0 0\n750 301 13 0 0\n750 302 12 0 0\n"),
            at(4) +
                ": height 750 m is not above the level before's, 750 m on line 3: the heights of a sounding "
                "increase");
  EXPECT_EQ(refusal("1000 300 14\n250 300 14 0 0\n\n100 301 13 0 0\n"),
            at(4) +
                ": height 100 m is not above the level before's, 250 m on line 2: the heights of a sounding "
                "increase");
}

TEST_F(InputSoundingTest, ASoundingWithoutLevelsIsRefused) {
  EXPECT_EQ(refusal("\n1000 300 14\n\n"),
            at(2) +
                ": the surface line is the sounding's last: a level follows it on each line, height (m), θ (K), "
                "q_v (g/kg), u and v (m/s)");
  EXPECT_EQ(refusal("\n \n"), (dir_ / "input_sounding").string() +
                                  ": no sounding: its first line holds the surface pressure (hPa), θ (K) and q_v "
                                  "(g/kg)");
}

TEST_F(InputSoundingTest, ValuesOutsideTheirRangeAreRefusedAtTheirLine) {
  EXPECT_EQ(refusal("1000 300 14\n250 300 -0.5 0 0\n"), at(2) + ": q_v -0.5 g/kg: must be >= 0");
  EXPECT_EQ(refusal("1000 300 -1\n250 300 14 0 0\n"), at(1) + ": q_v -1 g/kg: must be >= 0");
  EXPECT_EQ(refusal("1000 300 14\n250 0 14 0 0\n"), at(2) + ": θ 0 K: must be > 0");
  EXPECT_EQ(refusal("1000 -300 14\n250 300 14 0 0\n"), at(1) + ": θ -300 K: must be > 0");
  EXPECT_EQ(refusal("0 300 14\n250 300 14 0 0\n"), at(1) + ": surface pressure 0 hPa: must be > 0");
  // A level at or below the ground, and a dry level, are fine.
  EXPECT_EQ(read_input_sounding(write("1000 300 0\n-10 300 0 0 0\n0 300 0 0 0\n")).levels.size(), 2u);
}

}  // namespace
}  // namespace simapp::io
