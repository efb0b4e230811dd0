/// What simapp does in and around output.dir, through the real binary: conflicting flags and
/// runs that cannot start are refused before anything is removed; hostile paths are one-line
/// errors; only files simapp wrote are ever removed, and nothing outside output.dir is touched;
/// the directory is probed for the longest name a run writes before any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "io/hdf5/snapshot_writer.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class OutputDirectoryTest : public testing::SmallRunTest {
 protected:
  /// A short run writing snapshots and checkpoints into `directory`.
  static std::string short_run(const std::string& directory = "out") {
    return "--set time.sim_time=" + sim_time(12) + " --set output.dir=" + directory +
           " --set output.every=" + every(3) + " --set output.checkpoint_every=" + every(3);
  }

  /// Expects exit code `code` and exactly one error line on stderr matching `pattern`.
  static void expect_one_line(const Outcome& outcome, int code, const std::string& pattern) {
    EXPECT_EQ(outcome.exit_code, code) << outcome.err;
    EXPECT_TRUE(std::regex_match(outcome.err, std::regex("simapp: error: [^\n]*\n"))) << outcome.err;
    EXPECT_TRUE(std::regex_search(outcome.err, std::regex(pattern))) << outcome.err;
  }
};

TEST_F(OutputDirectoryTest, ConflictingFlagsAreErrors) {
  expect_one_line(simapp("--mode compare --restart latest"), 2,
                  R"(--restart: cannot be combined with execution\.mode compare)");
  expect_one_line(simapp("--set execution.mode=compare --restart latest"), 2, R"(--restart: cannot be combined)");
  expect_one_line(simapp("--overwrite --restart latest"), 2,
                  R"(--restart excludes --overwrite|--overwrite excludes --restart)");
  expect_one_line(simapp("--restart ''"), 2, R"(--restart: expects a checkpoint path or 'latest')");
}

TEST_F(OutputDirectoryTest, GridBeyondMemoryIsRefusedBeforeAnythingIsRemoved) {
  ASSERT_EQ(simapp(short_run()).exit_code, 0);
  const std::string huge = " --set grid.nx=1000000000";
  expect_one_line(simapp(short_run() + huge + " --validate"), 2,
                  R"(grid: 1000000000 x 20 cells need [0-9.e+]+ GB of host memory)");
  expect_one_line(simapp(short_run() + huge + " --overwrite"), 2, R"(grid: 1000000000 x 20 cells need)");
  for (const char* file : {"fields_000000.h5", "fields_000012.h5", "checkpoint_000012.h5", "fields.xmf"})
    EXPECT_TRUE(fs::exists(out() / file)) << file << ": nothing is removed before the run can start";
}

TEST_F(OutputDirectoryTest, HostilePathsAreOneLineErrors) {
  fs::create_symlink("loop", directory_ / "loop");
  const std::string long_name = "out/" + std::string(300, 'a');
  for (const std::string& directory : {std::string("loop"), std::string("loop/out"), long_name}) {
    for (const char* flags : {"", " --overwrite", " --restart latest", " --mode compare"}) {
      SCOPED_TRACE(directory.substr(0, 20) + flags);
      expect_one_line(simapp(short_run(directory) + flags), 2,
                      R"(output\.dir: cannot write to '[^']*': |timing\.json: cannot be written: )");
    }
  }
}

TEST_F(OutputDirectoryTest, OverwriteRemovesOnlyFilesSimappWrote) {
  // Through a symlinked output directory, as in the report.
  fs::create_directories(directory_ / "elsewhere");
  fs::create_directory_symlink("elsewhere", out());
  ASSERT_EQ(simapp(short_run()).exit_code, 0);
  for (const char* name : {"fields_000001.h5", "checkpoint_5.h5", "fields_7.h5.tmp"})
    std::ofstream(directory_ / "elsewhere" / name) << "a user's file\n";
  expect_one_line(simapp(short_run() + " --overwrite"), 2,
                  R"(out/checkpoint_5\.h5: named like a result but not written by simapp \(a file without simapp's )"
                  R"(attributes\))");
  for (const char* name : {"fields_000001.h5", "checkpoint_5.h5", "fields_7.h5.tmp"})
    EXPECT_EQ(testing::read_text(directory_ / "elsewhere" / name), "a user's file\n") << name;
  EXPECT_TRUE(fs::exists(out() / "fields_000012.h5")) << "nothing is removed when one file may not be";
  fs::remove(directory_ / "elsewhere" / "checkpoint_5.h5");
  fs::remove(directory_ / "elsewhere" / "fields_000001.h5");
  const Outcome replaced = simapp(short_run() + " --overwrite");
  EXPECT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(testing::read_text(directory_ / "elsewhere" / "fields_7.h5.tmp"), "a user's file\n");
}

TEST_F(OutputDirectoryTest, UnfinishedFilesNeverFollowLinks) {
  std::ofstream(directory_ / "precious.txt") << "precious\n";
  fs::create_directories(out() / ".simapp_tmp");
  fs::create_symlink("../precious.txt", out() / "fields_000000.h5.tmp");
  fs::create_symlink("../../planted.h5", out() / ".simapp_tmp" / "fields_000000.h5");
  fs::create_symlink("../../planted.h5", out() / ".simapp_tmp" / "checkpoint_000003.h5");
  const Outcome outcome = simapp(short_run());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(testing::read_text(directory_ / "precious.txt"), "precious\n");
  EXPECT_FALSE(fs::exists(fs::symlink_status(directory_ / "planted.h5"))) << "nothing is created through a link";
  EXPECT_TRUE(fs::is_symlink(out() / "fields_000000.h5.tmp")) << "a user's link is left alone";
  EXPECT_EQ(fs::symlink_status(out() / "fields_000000.h5").type(), fs::file_type::regular);
  EXPECT_EQ(io::read_dataset(out() / "fields_000000.h5", "u").size(), 40u * 20u);
  // A restart too: it removes the leftovers of a killed run without following them.
  fs::create_directories(out() / ".simapp_tmp");
  fs::create_symlink("../../precious.txt", out() / ".simapp_tmp" / "fields_000012.h5");
  ASSERT_EQ(simapp(short_run() + " --restart " + (out() / "checkpoint_000012.h5").string()).exit_code, 0);
  EXPECT_EQ(testing::read_text(directory_ / "precious.txt"), "precious\n");
}

TEST_F(OutputDirectoryTest, CompareChecksThatTimingJsonCanBeWrittenBeforeTimingAnything) {
  const Outcome outcome = simapp("--mode compare --set time.sim_time=" + sim_time(4) + " --set output.dir=/proc/self");
  expect_one_line(outcome, 2, R"(/proc/self/timing\.json: cannot be written: )");
  EXPECT_EQ(outcome.out.find("running"), std::string::npos) << outcome.out;
}

TEST_F(OutputDirectoryTest, DirectoryIsProbedForTheLongestNameTheRunWrites) {
  // A path where a short probe name and the snapshots fit, but not a checkpoint's unfinished
  // file: refused before any work, not by a failed write later.
  std::string directory = "deep";
  while (directory.size() + 201 < 4074) directory.append("/").append(200, 'd');
  const std::size_t last = 4074 - directory.size() - 1;
  directory.append("/").append(last, 'e');
  ASSERT_EQ(directory.size(), 4074u);
  ASSERT_EQ(run("mkdir -p " + directory).exit_code, 0);  // relative: the absolute path is too long
  const Outcome outcome = simapp(short_run(directory));
  // Searched for, not matched by a regular expression: std::regex recurses once a character
  // and would overflow the stack on this 4 kB line.
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_EQ(std::ranges::count(outcome.err, '\n'), 1) << outcome.err;
  EXPECT_TRUE(outcome.err.starts_with("simapp: error: output.dir: cannot write to '")) << outcome.err;
  EXPECT_NE(outcome.err.find("File name too long"), std::string::npos) << outcome.err;
  EXPECT_NE(run("test -e " + directory + "/fields_000000.h5").exit_code, 0) << "refused before any work";
}

}  // namespace
}  // namespace simapp
