/// The run's log (io/output/run_log.hpp): printed lines reach the console as they are and the
/// file with their time; lines printed before the file is opened are written to it first;
/// warnings and errors reach stderr and the file; a rank that prints nothing still records its
/// warnings; the file is never opened through a link or as anything but a regular file; a log
/// that can no longer be written is one warning, and the lines go on to the console.
#include "io/output/run_log.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/files/new_file.hpp"
#include "tests/support/text_lines.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::lines_of;

/// What was written to `stream` (a tmpfile).
std::string contents(std::FILE* stream) {
  std::fflush(stream);
  std::rewind(stream);
  std::string text;
  for (int c; (c = std::fgetc(stream)) != EOF;) text.push_back(static_cast<char>(c));
  return text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The text after a line's time stamp; "" for a line without one.
std::string unstamped(const std::string& line) {
  static const std::regex stamped(R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC\] (.*))");
  std::smatch match;
  return std::regex_match(line, match, stamped) ? match[1].str() : "";
}

class RunLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("simapp_run_log_test_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
    console_ = std::tmpfile();
    diagnostics_ = std::tmpfile();
  }
  void TearDown() override {
    std::fclose(console_);
    std::fclose(diagnostics_);
    fs::remove_all(directory_);
  }

  fs::path log_path() const { return directory_ / run_log_name; }

  fs::path directory_;
  std::FILE* console_ = nullptr;
  std::FILE* diagnostics_ = nullptr;
};

TEST_F(RunLogTest, LinesReachTheConsoleEachOnOneLineAndTheFileWithTheirTimesThoseBeforeItFirst) {
  {
    RunLog log(console_, diagnostics_, "simapp case.yaml (host h, pid 1, 1 rank)");
    log.print("before the file");
    log.print("one\nline \x1b[31mFAKE d_mass: 9");  // a name from outside never forges a line
    log.write_to(log_path());
    log.print("after it");
    log.note("for the file alone");
    log.warning("simapp: warning: something");
  }
  EXPECT_EQ(contents(console_), "before the file\none\\nline \\x1b[31mFAKE d_mass: 9\nafter it\n");
  EXPECT_EQ(contents(diagnostics_), "simapp: warning: something\n");
  const std::vector<std::string> lines = lines_of(read_text(log_path()));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_TRUE(
      std::regex_match(unstamped(lines[0]),
                       std::regex(R"(simapp \S+ \(git \S+\) started: simapp case\.yaml \(host h, pid 1, 1 rank\))")))
      << lines[0];
  const std::vector<std::string> expected{"before the file", "one\\nline \\x1b[31mFAKE d_mass: 9", "after it",
                                          "for the file alone", "simapp: warning: something"};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(unstamped(lines[i + 1]), expected[i]) << lines[i + 1];
  EXPECT_TRUE(is_run_log(log_path()));
}

TEST_F(RunLogTest, ARankThatPrintsNothingRecordsItsWarningsAndErrors) {
  {
    RunLog log(nullptr, diagnostics_, "rank 1");
    log.print("not printed");
    log.write_to(log_path());
    log.warning("simapp: warning: on rank 1");
    log.error("simapp: error: rank 1: failed");
  }
  EXPECT_EQ(contents(diagnostics_), "simapp: warning: on rank 1\nsimapp: error: rank 1: failed\n");
  const std::vector<std::string> lines = lines_of(read_text(log_path()));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(unstamped(lines[0]), "simapp: warning: on rank 1");
  EXPECT_EQ(unstamped(lines[1]), "simapp: error: rank 1: failed");
}

TEST_F(RunLogTest, AnExistingLogIsContinued) {
  for (int run = 0; run < 2; ++run) {
    RunLog log(console_, diagnostics_, "run " + std::to_string(run));
    log.write_to(log_path());
    log.print("line of run " + std::to_string(run));
  }
  const std::vector<std::string> lines = lines_of(read_text(log_path()));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(unstamped(lines[0]).ends_with("started: run 0"));
  EXPECT_EQ(unstamped(lines[1]), "line of run 0");
  EXPECT_TRUE(unstamped(lines[2]).ends_with("started: run 1"));
  EXPECT_EQ(unstamped(lines[3]), "line of run 1");
}

TEST_F(RunLogTest, TheFileIsNeverALinkOrAPipe) {
  std::ofstream(directory_ / "elsewhere") << "a user's file\n";
  fs::create_symlink(directory_ / "elsewhere", log_path());
  RunLog linked(console_, diagnostics_, "run");
  EXPECT_THROW(linked.write_to(log_path()), FileFailure);
  EXPECT_EQ(read_text(directory_ / "elsewhere"), "a user's file\n");
  fs::remove(log_path());
  ASSERT_EQ(::mkfifo(log_path().c_str(), 0644), 0);
  RunLog piped(console_, diagnostics_, "run");
  EXPECT_THROW(piped.write_to(log_path()), FileFailure);  // and it does not wait for a reader
}

TEST_F(RunLogTest, OnlyALogSimappWroteIsTakenForOne) {
  std::ofstream(log_path()) << "my notes\n";
  EXPECT_FALSE(is_run_log(log_path()));
  std::ofstream(log_path()) << "[2026-12-01 10:00:00.000 UTC] something else started: x\n";
  EXPECT_FALSE(is_run_log(log_path()));
  EXPECT_FALSE(is_run_log(directory_ / "missing.log"));
}

/// What is in the pipe `descriptor` now (its writer gone).
std::string drained(int descriptor) {
  std::string text;
  char buffer[4096];
  for (ssize_t count; (count = ::read(descriptor, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(count));
  ::close(descriptor);
  return text;
}

TEST_F(RunLogTest, ALogThatCanNoLongerBeWrittenIsOneWarningAndThePrintingGoesOn) {
  // In a child process under a file-size limit of 1 KiB (a full disk, as the log sees it), its
  // console and stderr pipes (which the limit does not bound) to this process.
  int console[2], diagnostics[2];
  ASSERT_EQ(::pipe(console), 0);
  ASSERT_EQ(::pipe(diagnostics), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1024, 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::close(console[0]);
    ::close(diagnostics[0]);
    std::FILE* console_stream = ::fdopen(console[1], "w");
    std::FILE* diagnostics_stream = ::fdopen(diagnostics[1], "w");
    {
      RunLog log(console_stream, diagnostics_stream, "run");
      log.write_to(log_path());
      for (int i = 0; i < 100; ++i) log.print("line " + std::to_string(i) + " of a run whose log fills the disk");
    }
    std::fclose(console_stream);
    std::fclose(diagnostics_stream);
    ::_exit(0);
  }
  ::close(console[1]);
  ::close(diagnostics[1]);
  const std::string printed = drained(console[0]), warned = drained(diagnostics[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(lines_of(printed).size(), 100u) << "every line reaches the console";
  const std::vector<std::string> warnings = lines_of(warned);
  ASSERT_EQ(warnings.size(), 1u) << warned;
  EXPECT_TRUE(std::regex_match(warnings[0], std::regex(R"(simapp: warning: .*simapp\.log: cannot be written \(.*\); )"
                                                       R"(the run goes on without its log file)")))
      << warnings[0];
  EXPECT_LE(fs::file_size(log_path()), 1024u);
}

}  // namespace
}  // namespace simapp::io
