#pragma once
/// Running the real simapp binary from a test: a fresh directory per test and the command's
/// exit code, stdout and stderr.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace simapp::testing {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A test with its own temporary directory, removed afterwards.
class BinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Named after the test and this process, so that two test runs never share it.
    directory_ =
        std::filesystem::temp_directory_path() /
        ("simapp_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) + "_" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  /// Runs the shell command `command` in the test directory.
  Outcome run(const std::string& command) const {
    const std::string shell = "cd '" + directory_.string() + "' && " + command + " > stdout.txt 2> stderr.txt";
    const int status = std::system(shell.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(directory_ / "stdout.txt"),
            read_text(directory_ / "stderr.txt")};
  }

  /// A shell prefix that bounds the memory of the commands after it to 4 GB, so that a
  /// regression that allocates without end fails instead of exhausting the machine: an
  /// address-space limit, or under AddressSanitizer (which reserves terabytes of address space
  /// for its shadow memory) its own limit on resident memory.
  static std::string memory_bound() {
#if defined(__SANITIZE_ADDRESS__)
    return "export ASAN_OPTIONS=hard_rss_limit_mb=4000; ";
#else
    return "ulimit -v 4000000; ";
#endif
  }

  std::filesystem::path directory_;
};

}  // namespace simapp::testing
