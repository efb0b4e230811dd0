/// One run per output directory (io/files/directory_lock.hpp): a second lock of a locked
/// directory is refused naming the holder, by flock and by the exclusive file that stands in for
/// it where a file system has no flock; letting go frees it; a lock a dead process left is named
/// as probably stale and never taken over.
#include "io/files/directory_lock.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <string>

#include "foundation/error.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

class DirectoryLockTest : public ::testing::TestWithParam<LockMethod> {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("simapp_lock_test_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  /// The message of the Error that taking the lock throws; "" when it is taken.
  std::string refusal() const {
    try {
      const DirectoryLock lock(directory_, GetParam());
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::bad_input);
      EXPECT_EQ(error.where(), directory_.string());
      return error.what();
    }
    return "";
  }

  static std::string host() {
    std::array<char, 256> name{};
    ::gethostname(name.data(), name.size() - 1);
    return name.data();
  }

  fs::path directory_;
};

TEST_P(DirectoryLockTest, ASecondLockIsRefusedNamingTheHolderUntilTheFirstLetsGo) {
  std::optional<DirectoryLock> first;
  first.emplace(directory_, GetParam());
  EXPECT_EQ(first->by_flock(), GetParam() == LockMethod::automatic);  // this file system has flock
  const std::string message = refusal();
  EXPECT_TRUE(std::regex_search(
      message, std::regex("^in use by another simapp run \\(host " + host() + " pid " + std::to_string(::getpid()) +
                          R"( since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); one run at a )"
                          R"(time per output directory)")))
      << message;
  first.reset();
  EXPECT_EQ(refusal(), "");
}

TEST_P(DirectoryLockTest, TheLockFileNamesItsHolder) {
  const DirectoryLock lock(directory_, GetParam());
  std::ifstream in(directory_ / lock_file_name);
  std::string line;
  std::getline(in, line);
  EXPECT_TRUE(std::regex_match(line, std::regex("host " + host() + " pid " + std::to_string(::getpid()) +
                                                R"( since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)")))
      << line;
}

TEST_P(DirectoryLockTest, AFileThatIsNotTheLocksOwnIsNeverWrittenInto) {
  // A hard link (left by cp -al or rsync --link-dest, or planted in a shared directory): the
  // lock file's name is a second name of a user's file.
  const fs::path precious = directory_ / "precious.txt";
  std::ofstream(precious) << "a user's file\n";
  fs::create_hard_link(precious, directory_ / lock_file_name);
  try {
    const DirectoryLock lock(directory_, GetParam());
    ADD_FAILURE() << "the lock was taken";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_EQ(error.where(), (directory_ / lock_file_name).string());
    EXPECT_TRUE(
        std::regex_search(error.what(), std::regex(R"(^not simapp's lock file: it has 2 names \(a hard link\); )"
                                                   R"(simapp never writes into it: remove this name)")))
        << error.what();
  }
  std::ifstream in(precious, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "a user's file\n") << "byte for byte intact";
  // A named pipe, which no reader may block on or write into.
  fs::remove(directory_ / lock_file_name);
  ASSERT_EQ(::mkfifo((directory_ / lock_file_name).c_str(), 0600), 0);
  try {
    const DirectoryLock lock(directory_, GetParam());
    ADD_FAILURE() << "the lock was taken";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_TRUE(std::regex_search(error.what(), std::regex(R"(^not simapp's lock file: a named pipe, not a regular )"
                                                           R"(file; simapp never writes into it: remove it)")))
        << error.what();
  }
  EXPECT_EQ(fs::status(directory_ / lock_file_name).type(), fs::file_type::fifo);
}

INSTANTIATE_TEST_SUITE_P(Methods, DirectoryLockTest,
                         ::testing::Values(LockMethod::automatic, LockMethod::exclusive_file),
                         [](const ::testing::TestParamInfo<LockMethod>& method) {
                           return method.param == LockMethod::automatic ? "flock" : "exclusive_file";
                         });

using ExclusiveLockTest = DirectoryLockTest;

TEST_P(ExclusiveLockTest, ALockADeadProcessLeftIsNamedStaleAndNeverTakenOver) {
  // A process of this host that has ended: its pid is free (until reused).
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  std::ofstream(directory_ / lock_file_name)
      << "host " << host() << " pid " << child << " since 2026-01-01 00:00:00 UTC\n";
  const std::string message = refusal();
  EXPECT_TRUE(
      std::regex_search(message, std::regex("it looks stale \\(that process is not running\\): remove " +
                                            (directory_ / lock_file_name).string() + " if no run uses the directory")))
      << message;
  EXPECT_TRUE(fs::exists(directory_ / lock_file_name)) << "never removed by another process";
  // One of another host cannot be told stale from here.
  std::ofstream(directory_ / lock_file_name) << "host elsewhere pid 1 since 2026-01-01 00:00:00 UTC\n";
  EXPECT_TRUE(std::regex_search(refusal(), std::regex("a run killed outright leaves it behind: remove ")));
}

INSTANTIATE_TEST_SUITE_P(Fallback, ExclusiveLockTest, ::testing::Values(LockMethod::exclusive_file));

}  // namespace
}  // namespace simapp::io
