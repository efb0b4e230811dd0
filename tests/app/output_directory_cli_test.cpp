/// What simapp does in and around output.dir, through the real binary: conflicting flags and
/// runs that cannot start are refused before anything is removed; hostile paths are one-line
/// errors; only files simapp wrote are ever removed, and nothing outside output.dir is touched;
/// the directory is probed for the longest name a run writes before any work.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_reader.hpp"
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
  for (const char* file : {"fields_000000.nc", "fields_000012.nc", "checkpoint_000012.h5", "fields.xmf"})
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
  for (const char* name : {"fields_000001.nc", "checkpoint_5.h5", "fields_7.nc.tmp"})
    std::ofstream(directory_ / "elsewhere" / name) << "a user's file\n";
  expect_one_line(simapp(short_run() + " --overwrite"), 2,
                  R"(out/checkpoint_5\.h5: named like a result but not written by simapp \(a file without simapp's )"
                  R"(attributes\))");
  for (const char* name : {"fields_000001.nc", "checkpoint_5.h5", "fields_7.nc.tmp"})
    EXPECT_EQ(testing::read_text(directory_ / "elsewhere" / name), "a user's file\n") << name;
  EXPECT_TRUE(fs::exists(out() / "fields_000012.nc")) << "nothing is removed when one file may not be";
  fs::remove(directory_ / "elsewhere" / "checkpoint_5.h5");
  fs::remove(directory_ / "elsewhere" / "fields_000001.nc");
  const Outcome replaced = simapp(short_run() + " --overwrite");
  EXPECT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(testing::read_text(directory_ / "elsewhere" / "fields_7.nc.tmp"), "a user's file\n");
}

/// An output directory of an earlier version of simapp, whose snapshots were named
/// fields_<step>.h5: its snapshots are results (a plain run is refused), a restart replaces those
/// after its checkpoint and keeps (and indexes) those before, --overwrite removes them all.
TEST_F(OutputDirectoryTest, SnapshotsNamedAsEarlierVersionsNamedThemAreResults) {
  // A run to step 9 whose snapshots are renamed as an earlier simapp named them, and a snapshot
  // of step 12 beside them, as if that run had gone further than its checkpoint.
  const std::string run_to_9 = "--set time.sim_time=" + sim_time(9) +
                               " --set output.dir=out --set output.every=" + every(3) +
                               " --set output.checkpoint_every=" + every(3);
  ASSERT_EQ(simapp(run_to_9).exit_code, 0);
  for (const auto& entry : fs::directory_iterator(out()))
    if (entry.path().extension() == ".nc") fs::rename(entry.path(), fs::path(entry.path()).replace_extension(".h5"));
  fs::copy_file(out() / "fields_000009.h5", out() / "fields_000012.h5");
  for (const char* record : {"run.json", "simapp.log", "fields.xmf"}) fs::remove(out() / record);
  expect_one_line(simapp(short_run()), 2, R"('out' holds results of an earlier run \(checkpoint_000009\.h5, \.\.\.\))");
  const Outcome restarted = simapp(short_run() + " --restart latest");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
  for (const char* kept : {"fields_000000.h5", "fields_000003.h5", "fields_000006.h5", "fields_000009.h5"})
    EXPECT_TRUE(fs::exists(out() / kept)) << kept << ": up to the checkpoint";
  EXPECT_FALSE(fs::exists(out() / "fields_000012.h5")) << "after the checkpoint: replaced";
  EXPECT_TRUE(fs::exists(out() / "fields_000012.nc"));
  const std::string index = testing::read_text(out() / "fields.xmf");
  for (const char* indexed : {"fields_000000.h5:/u", "fields_000009.h5:/u", "fields_000012.nc:/u"})
    EXPECT_NE(index.find(indexed), std::string::npos) << indexed;
  ASSERT_EQ(simapp(short_run() + " --overwrite").exit_code, 0);
  for (const auto& entry : fs::directory_iterator(out()))
    EXPECT_FALSE(entry.path().filename().string().starts_with("fields_") && entry.path().extension() == ".h5")
        << entry.path() << ": --overwrite removes every snapshot";
}

TEST_F(OutputDirectoryTest, UnfinishedFilesNeverFollowLinks) {
  std::ofstream(directory_ / "precious.txt") << "precious\n";
  fs::create_directories(out() / ".simapp_tmp");
  fs::create_symlink("../precious.txt", out() / "fields_000000.nc.tmp");
  fs::create_symlink("../../planted.h5", out() / ".simapp_tmp" / "fields_000000.nc");
  fs::create_symlink("../../planted.h5", out() / ".simapp_tmp" / "checkpoint_000003.h5");
  const Outcome outcome = simapp(short_run());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(testing::read_text(directory_ / "precious.txt"), "precious\n");
  EXPECT_FALSE(fs::exists(fs::symlink_status(directory_ / "planted.h5"))) << "nothing is created through a link";
  EXPECT_TRUE(fs::is_symlink(out() / "fields_000000.nc.tmp")) << "a user's link is left alone";
  EXPECT_EQ(fs::symlink_status(out() / "fields_000000.nc").type(), fs::file_type::regular);
  EXPECT_EQ(io::read_dataset(out() / "fields_000000.nc", "u").size(), 40u * 20u);
  // A restart too: it removes the leftovers of a killed run without following them.
  fs::create_directories(out() / ".simapp_tmp");
  fs::create_symlink("../../precious.txt", out() / ".simapp_tmp" / "fields_000012.nc");
  ASSERT_EQ(simapp(short_run() + " --restart " + (out() / "checkpoint_000012.h5").string()).exit_code, 0);
  EXPECT_EQ(testing::read_text(directory_ / "precious.txt"), "precious\n");
}

TEST_F(OutputDirectoryTest, CompareChecksThatTimingJsonCanBeWrittenBeforeTimingAnything) {
  const Outcome outcome = simapp("--mode compare --set time.sim_time=" + sim_time(4) + " --set output.dir=/proc/self");
  expect_one_line(outcome, 2, R"(output\.dir: cannot write to '/proc/self': )");
  EXPECT_EQ(outcome.out.find("running"), std::string::npos) << outcome.out;
}

TEST_F(OutputDirectoryTest, ASecondRunInTheSameDirectoryIsRefusedAtOnceNamingTheFirst) {
  // The first runs until it is told to stop; meanwhile every kind of second run tries the directory.
  std::string first =
      command("--set time.sim_time=" + sim_time(1000000) + " --set output.dir=out --set output.every=" + every(50) +
              " --set output.checkpoint_every=" + every(200));
  first +=
      " > first.out 2> first.err & pid=$!; echo $pid > first.pid; "
      "while [ ! -e out/fields_000050.nc ] && kill -0 $pid 2> /dev/null; do sleep 0.01; done";
  ASSERT_EQ(run("(" + first + ")").exit_code, 0);
  const std::string pid = testing::read_text(directory_ / "first.pid");
  const std::string holder = R"(simapp: error: out: in use by another simapp run \(host \S+ pid )" +
                             pid.substr(0, pid.find('\n')) +
                             R"( since [0-9-]+ [0-9:]+ UTC\); one run at a time per output directory\n)";
  for (const char* second : {"", " --overwrite", " --restart latest", " --mode compare"}) {
    SCOPED_TRACE(std::string("second run:") + second);
    const Outcome refused = run("timeout 60 " + command("--set time.sim_time=" + sim_time(400) +
                                                        " --set output.dir=out --set output.every=" + every(50) +
                                                        " --set output.checkpoint_every=" + every(200) + second));
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_TRUE(std::regex_match(refused.err, std::regex(holder))) << refused.err;
  }
  ASSERT_EQ(
      run("kill -TERM $(cat first.pid); while kill -0 $(cat first.pid) 2> /dev/null; do sleep 0.01; done").exit_code,
      0);
  EXPECT_EQ(testing::read_text(directory_ / "first.err"), "") << "the first run is undisturbed";
  EXPECT_TRUE(std::regex_search(testing::read_text(directory_ / "first.out"), std::regex("stopped by SIGTERM")));
  // Every snapshot the index lists is there, and the checkpoint it stopped with.
  const std::string index = testing::read_text(out() / "fields.xmf");
  std::smatch listed;
  for (std::string rest = index; std::regex_search(rest, listed, std::regex(R"((fields_\d+\.nc):)"));
       rest = listed.suffix())
    EXPECT_TRUE(fs::exists(out() / listed[1].str())) << listed[1];
  const Outcome continued =
      simapp("--set time.sim_time=" + sim_time(1000000) + " --set output.dir=out --set output.every=" + every(50) +
             " --set output.checkpoint_every=" + every(200) + " --validate --restart latest");
  EXPECT_TRUE(std::regex_search(continued.out, std::regex("a restart continues from out/checkpoint_")))
      << continued.out << continued.err;
}

TEST_F(OutputDirectoryTest, ALockFileThatIsAHardLinkToAUsersFileIsRefusedAndLeftIntact) {
  // As `cp -al` leaves it, or as planted in a shared directory.
  fs::create_directories(out());
  const std::string precious = "a user's file\n" + std::string(1000, 'x') + "\n";
  std::ofstream(directory_ / "precious.txt") << precious;
  fs::create_hard_link(directory_ / "precious.txt", out() / ".simapp_lock");
  for (const char* flags : {"", " --overwrite", " --mode compare"}) {
    SCOPED_TRACE(flags);
    expect_one_line(simapp(short_run() + flags), 2,
                    R"(^simapp: error: [^\n]*out/\.simapp_lock: not simapp's lock file: it has 2 names \(a hard )"
                    R"(link\); simapp never writes into it: remove this name \(the file's other names keep its )"
                    R"(content\), or choose another output\.dir\n$)");
    EXPECT_EQ(testing::read_text(directory_ / "precious.txt"), precious) << "byte for byte intact";
  }
  EXPECT_FALSE(fs::exists(out() / "fields_000000.h5")) << "nothing is written";
}

TEST_F(OutputDirectoryTest, ARelativeDirectoryInARemovedWorkingDirectoryIsOneLine) {
  // A shell left in a directory that was removed meanwhile.
  const std::string config = (directory_ / "case.yaml").string();
  for (const char* flags : {"", " --mode compare"}) {
    SCOPED_TRACE(flags);
    fs::create_directories(directory_ / "gone");
    expect_one_line(run("(cd gone && rmdir ../gone && " + launcher(1) + binary() + " " + config + " --backend host " +
                        short_run() + flags + ")"),
                    2,
                    R"(^simapp: error: output\.dir: cannot write to 'out': the working directory it is relative )"
                    R"(to cannot be found \(No such file or directory; was it removed\?\): change to an existing )"
                    R"(directory or give an absolute path\n$)");
  }
}

TEST_F(OutputDirectoryTest, AnOutputDirectoryInsideAFolderForUnfinishedFilesIsRefused) {
  for (const char* directory : {"out/.simapp_tmp", "out/.simapp_tmp/deeper", "./out/x/../.simapp_tmp/"}) {
    SCOPED_TRACE(directory);
    expect_one_line(simapp(short_run(directory)), 2,
                    R"(output\.dir: '[^']*' lies inside a \.simapp_tmp folder, where simapp keeps unfinished files)");
  }
  EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "nothing was created";
}

/// The names in the test's directory, recursively: what a command left there.
std::vector<std::string> listing_of(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(directory))
    names.push_back(fs::relative(entry.path(), directory).string());
  std::ranges::sort(names);
  return names;
}

/// --validate checks output.dir as the run does before it starts, creating nothing, and
/// refuses what the run refuses at once with the same line.
TEST_F(OutputDirectoryTest, ValidateRefusesTheOutputDirectoriesTheRunRefuses) {
  std::ofstream(directory_ / "plain") << "a file, not a directory\n";
  fs::create_directories(directory_ / "earlier");
  ASSERT_EQ(simapp(short_run("earlier")).exit_code, 0);
  for (const std::string& directory : {"out/" + std::string(300, 'a'), std::string("out/.simapp_tmp/deeper"),
                                       std::string("plain/out"), std::string("plain"), std::string("earlier")}) {
    SCOPED_TRACE(directory.substr(0, 24));
    const std::vector<std::string> before = listing_of(directory_);
    const Outcome validated = simapp(short_run(directory) + " --validate");
    EXPECT_EQ(listing_of(directory_), before) << "--validate creates nothing";
    const Outcome ran = simapp(short_run(directory));
    expect_one_line(ran, 2, "output\\.dir: ");
    EXPECT_EQ(validated.exit_code, 2);
    EXPECT_EQ(validated.err, ran.err);
    EXPECT_EQ(validated.out, "");
  }
  // What --overwrite and --restart accept there, --validate accepts with them.
  EXPECT_EQ(simapp(short_run("earlier") + " --validate --overwrite").exit_code, 0);
  EXPECT_EQ(simapp(short_run("earlier") + " --validate --restart latest").exit_code, 0);
}

/// A read-only file system (a read-only bind mount, in a mount namespace of the test's own):
/// refused by --validate as by the run, whether output.dir is to be made there or is there.
TEST_F(OutputDirectoryTest, ValidateRefusesAnOutputDirectoryOnAReadOnlyFileSystem) {
  if (run("unshare -rm mount -o bind,ro . .").exit_code != 0)
    GTEST_SKIP() << "no mount namespace can be made here (unshare -rm) for a read-only bind mount";
  fs::create_directories(directory_ / "ro" / "there");
  const auto read_only = [&](const std::string& arguments) {
    return run("unshare -rm sh -c 'mount -o bind,ro ro ro && exec \"$0\" \"$@\"' " + command(arguments));
  };
  for (const char* directory : {"ro/out", "ro/there"}) {
    SCOPED_TRACE(directory);
    const Outcome validated = read_only(short_run(directory) + " --validate");
    const Outcome ran = read_only(short_run(directory));
    expect_one_line(ran, 2, "output\\.dir: cannot write to '[^']*': .*Read-only file system");
    EXPECT_EQ(validated.exit_code, 2);
    EXPECT_EQ(validated.err, ran.err);
  }
}

TEST_F(OutputDirectoryTest, AnAddressSpaceLimitIsFoundBeforeAnythingIsRemoved) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no address-space limit can hold";
#endif
  ASSERT_EQ(simapp(short_run()).exit_code, 0);
  // 2000 x 1000 cells need some 0.3 GB: less than the limit, not with the threads' stacks and heaps.
  const std::string larger = short_run() + " --set grid.nx=2000 --set grid.nz=1000 --set time.sim_time=" + sim_time(2);
  for (const char* flags : {" --validate", " --overwrite"}) {
    SCOPED_TRACE(flags);
    expect_one_line(run("ulimit -v 500000; " + command(larger + flags)), 2,
                    R"(grid: 2000 x 1000 cells need [0-9.]+ GB of host memory a rank \([0-9.]+ GB with the stacks )"
                    R"(and heaps of its \d+ threads\), but the address-space limit of the process)");
  }
  for (const char* file : {"fields_000000.nc", "fields_000012.nc", "checkpoint_000012.h5", "fields.xmf"})
    EXPECT_TRUE(fs::exists(out() / file)) << file << ": nothing is removed before the run can start";
}

TEST_F(OutputDirectoryTest, OverwriteChecksItMayRemoveEveryFileBeforeRemovingAny) {
  // A shared directory (sticky, like /tmp) that two users wrote results into: one may remove only
  // their own files there.
  if (::geteuid() != 0 || run("command -v setpriv").exit_code != 0)
    GTEST_SKIP() << "needs root and setpriv to act as two other users";
  const std::string as_first = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  const std::string as_second = "setpriv --reuid=65533 --regid=65533 --clear-groups ";
  if (run(as_first + "test -x " + binary()).exit_code != 0)
    GTEST_SKIP() << "the simapp binary cannot be run by another user from where it was built";
  fs::permissions(directory_, fs::perms::all);
  fs::create_directory(out());
  fs::permissions(out(), fs::perms::all | fs::perms::sticky_bit);
  // The first user's run, then the second user's timing report beside it.
  ASSERT_EQ(run(as_first + command(short_run())).exit_code, 0);
  ASSERT_EQ(run(as_second + command("--mode compare --set execution.compare=eager --set output.dir=out "
                                    "--set time.sim_time=" +
                                    sim_time(2)))
                .exit_code,
            0);
  const auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(out())) names.push_back(entry.path().filename().string());
    std::ranges::sort(names);
    return names;
  };
  const std::vector<std::string> before = listing();
  ASSERT_TRUE(std::ranges::find(before, "timing.json") != before.end());
  const std::string refused = R"(: cannot be removed \('[^']*out' is a shared directory \(sticky\) and the file )"
                              R"(belongs to user 655\d\d\), so the run would stop after removing other results: )"
                              R"(nothing was removed)";
  expect_one_line(run(as_first + command(short_run() + " --overwrite")), 2, "out/timing\\.json" + refused);
  EXPECT_EQ(listing(), before);
  // Nor does the second user continue the first one's run: it would replace their index.
  expect_one_line(run(as_second + command(short_run() + " --set time.sim_time=" + sim_time(18) + " --restart latest")),
                  2, "out/[a-z_0-9]+\\.(h5|xmf|log|json)" + refused);
  EXPECT_EQ(listing(), before);
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
  EXPECT_NE(run("test -e " + directory + "/fields_000000.nc").exit_code, 0) << "refused before any work";
}

}  // namespace
}  // namespace simapp
