/// Batch jobs end early: killed at any moment (SIGKILL), asked to stop (SIGTERM, as Slurm does
/// before the kill at walltime), or blown up. Through the real binary: `--restart latest` with
/// the same command always continues and ends bit-identical to an uninterrupted run (a killed
/// series run leaving its earlier times whole meanwhile), SIGTERM ends cleanly with a
/// checkpoint, and a non-finite state is never written.
#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_reader.hpp"
#include "tests/support/small_run_test.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

/// The names of the snapshot (.nc) and checkpoint (.h5) files in `directory`.
std::set<std::string> result_files(const fs::path& directory) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if ((name.starts_with("fields_") && entry.path().extension() == ".nc") ||
        (name.starts_with("checkpoint_") && entry.path().extension() == ".h5"))
      names.insert(name);
  }
  return names;
}

/// Expects every snapshot of `reference` in `other`, bit for bit the same fields.
void expect_same_snapshots(const fs::path& reference, const fs::path& other) {
  std::set<std::string> snapshots;
  for (const std::string& name : result_files(reference))
    if (name.starts_with("fields_")) snapshots.insert(name);
  ASSERT_FALSE(snapshots.empty());
  for (const std::string& name : snapshots) {
    ASSERT_TRUE(fs::exists(other / name)) << name;
    for (const char* field : {"rho_prime", "u", "w", "theta_prime"}) {
      const std::vector<double> a = io::read_dataset(reference / name, field),
                                b = io::read_dataset(other / name, field);
      ASSERT_EQ(a.size(), b.size()) << name << " " << field;
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name << " " << field;
    }
  }
  for (const std::string& name : result_files(other)) {
    if (name.starts_with("fields_")) {
      EXPECT_TRUE(snapshots.contains(name)) << "extra snapshot " << name;
    }
  }
}

class InterruptedRunTest : public testing::SmallRunTest {
 protected:
  /// 300 steps with a snapshot and a checkpoint every 3: about 1 s on one core.
  static std::string long_run() {
    return "--set time.sim_time=" + sim_time(300) + " --set output.every=" + every(3) +
           " --set output.checkpoint_every=" + every(3);
  }

  /// Runs `arguments` in the background, sends `signal` after `seconds`, and returns its exit status.
  int interrupted(const std::string& arguments, const std::string& signal, double seconds) const {
    std::string script = command(arguments);
    script += " > first.out 2> first.err & pid=$!; sleep " + text(seconds) + "; kill -" + signal +
              " $pid; wait $pid; echo $? > first.status";
    run("(" + script + ")");
    return std::stoi(testing::read_text(directory_ / "first.status"));
  }
};

TEST_F(InterruptedRunTest, RestartAfterAKillAtAnyMomentEndsAsAnUninterruptedRun) {
  ASSERT_EQ(simapp(long_run() + " --set output.dir=reference").exit_code, 0);
  struct Trial {
    const char* signal;
    double seconds;
  };
  for (const Trial trial : {Trial{"KILL", 0.0}, Trial{"TERM", 0.0}, Trial{"KILL", 0.15}, Trial{"TERM", 0.3},
                            Trial{"KILL", 0.5}, Trial{"TERM", 0.7}, Trial{"KILL", 0.9}}) {
    SCOPED_TRACE(std::string("SIG") + trial.signal + " after " + text(trial.seconds) + " s");
    fs::remove_all(out());
    const int status = interrupted(long_run() + " --set output.dir=out", trial.signal, trial.seconds);
    if (std::string(trial.signal) == "TERM") {
      // 5: stopped cleanly; 0: it had finished; 143: the signal came while the process was
      // still starting, before simapp could handle it (as good as a kill).
      EXPECT_TRUE(status == 5 || status == 0 || status == 143)
          << "SIGTERM ends cleanly with code 5; got " << status << ": " << testing::read_text(directory_ / "first.err");
    }
    const Outcome restarted = simapp(long_run() + " --set output.dir=out --restart latest");
    ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
    expect_same_snapshots(directory_ / "reference", out());
    EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "unfinished files of the killed run are cleared";
  }
}

/// Expects `series` to hold the first `times` times of `reference` (every time of it when
/// `times` is -1), bit for bit.
void expect_series_times(const fs::path& reference, const fs::path& series, long times = -1) {
  const std::vector<double> reference_steps = io::read_dataset(reference, "step");
  const std::vector<double> steps = io::read_dataset(series, "step");
  const auto count = static_cast<std::size_t>(times < 0 ? static_cast<long>(reference_steps.size()) : times);
  ASSERT_GE(steps.size(), count);
  if (times < 0) {
    EXPECT_EQ(steps.size(), count) << "no extra time";
  }
  for (const char* name : {"time", "step", "rho_prime", "u", "w", "theta_prime"}) {
    const std::vector<double> a = io::read_dataset(reference, name), b = io::read_dataset(series, name);
    const std::size_t values = a.size() / reference_steps.size() * count;
    ASSERT_GE(b.size(), values) << name;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), values * sizeof(double)), 0) << name;
  }
}

TEST_F(InterruptedRunTest, AKilledSeriesRunLeavesItsEarlierTimesWholeAndARestartEndsAsAnUninterruptedRun) {
  const std::string series = long_run() + " --set output.layout=series";
  ASSERT_EQ(simapp(series + " --set output.dir=reference").exit_code, 0);
  for (const double seconds : {0.15, 0.5, 0.9}) {
    SCOPED_TRACE("SIGKILL after " + text(seconds) + " s");
    fs::remove_all(out());
    interrupted(series + " --set output.dir=out", "KILL", seconds);
    if (fs::exists(out() / "fields.nc")) {
      // What the killed run appended, read as SWMR readers do when it was killed in an append.
      const long times = static_cast<long>(io::read_dataset(out() / "fields.nc", "time").size());
      EXPECT_GE(times, 1);
      expect_series_times(directory_ / "reference" / "fields.nc", out() / "fields.nc", times);
    }
    const Outcome restarted = simapp(series + " --set output.dir=out --restart latest");
    ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
    expect_series_times(directory_ / "reference" / "fields.nc", out() / "fields.nc");
    EXPECT_FALSE(fs::exists(out() / ".simapp_tmp")) << "unfinished files of the killed run are cleared";
  }
}

class StopSignalTest : public InterruptedRunTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(StopSignalTest, StopsWithACheckpointAndTheInterruptedCode) {
  const std::string signal = GetParam();
  ASSERT_EQ(simapp(long_run() + " --set output.dir=reference").exit_code, 0);
  // Stop once the run is well under way (its snapshot at step 90 exists).
  std::string script = command(long_run() + " --set output.dir=out");
  script +=
      " > first.out 2> first.err & pid=$!; while [ ! -e out/fields_000090.nc ] && kill -0 $pid 2> /dev/null; "
      "do sleep 0.01; done; kill -" +
      signal + " $pid; wait $pid; echo $? > first.status";
  run("(" + script + ")");
  EXPECT_EQ(std::stoi(testing::read_text(directory_ / "first.status")), 5)
      << testing::read_text(directory_ / "first.err");
  EXPECT_EQ(testing::read_text(directory_ / "first.err"), "");
  const std::string said = testing::read_text(directory_ / "first.out");
  std::smatch stopped;
  ASSERT_TRUE(std::regex_search(said, stopped,
                                std::regex("stopped by SIG" + signal +
                                           R"( at step (\d+) of 300 \(t = [0-9.e+]+ s\); )"
                                           R"(checkpoint in 'out': continue with --restart latest)")))
      << said;
  const long step = std::stol(stopped[1]);
  EXPECT_GE(step, 90);
  EXPECT_LT(step, 300);
  char checkpoint[64];
  std::snprintf(checkpoint, sizeof checkpoint, "checkpoint_%06ld.h5", step);
  EXPECT_TRUE(fs::exists(out() / checkpoint)) << "the checkpoint of the step it stopped at";
  const Outcome restarted = simapp(long_run() + " --set output.dir=out --restart latest");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
  EXPECT_TRUE(std::regex_search(restarted.out, std::regex("restarting from out/" + std::string(checkpoint))))
      << restarted.out;
  expect_same_snapshots(directory_ / "reference", out());
}

TEST_P(StopSignalTest, ACompareStopsAfterItsTimedRunAndWritesNoTimingReport) {
  // Rounds enough for minutes; the signal comes once the second has begun.
  std::string script = command("--mode compare --set execution.repeats=1000 --set time.sim_time=" + sim_time(12) +
                               " --set output.dir=out");
  script +=
      " > compare.out 2> compare.err & pid=$!; while ! grep -q 'round 2 ' compare.out && kill -0 $pid; do sleep "
      "0.01; done; kill -" +
      std::string(GetParam()) +
      " $pid; date +%s.%N > signalled; wait $pid; echo $? > compare.status; date "
      "+%s.%N > ended";
  run("(" + script + ")");
  const double seconds =
      std::stod(testing::read_text(directory_ / "ended")) - std::stod(testing::read_text(directory_ / "signalled"));
  EXPECT_EQ(std::stoi(testing::read_text(directory_ / "compare.status")), 5);
  EXPECT_LT(seconds, 5.0) << "it stops after the run in progress";
  EXPECT_EQ(testing::read_text(directory_ / "compare.err"), "");
  const std::string said = testing::read_text(directory_ / "compare.out");
  EXPECT_TRUE(std::regex_search(said, std::regex("\nstopped by SIG" + std::string(GetParam()) +
                                                 R"( in round \d+ after \d+ timed runs; no timing\.json written )"
                                                 R"(\(an interrupted comparison is incomplete\): run it again to )"
                                                 R"(time the modes\n$)")))
      << said;
  EXPECT_FALSE(fs::exists(out() / "timing.json")) << "no report claims a whole comparison";
}

TEST_P(StopSignalTest, AWaitForAConfigurationFromAPipeEndsWithOneLine) {
  // A named pipe nothing writes to (mkfifo f; simapp f --validate), signalled once simapp
  // waits on it (has it open), or after 3 s. The watchdog ends its own sleep when it is stopped:
  // an MPI singleton (this test) inherits orphans and waits for them at its exit.
  std::string script =
      "mkfifo config.fifo; " + launcher(1) + binary() +
      " config.fifo --validate > fifo.out 2> fifo.err & pid=$!; "
      "for n in $(seq 300); do ls -l /proc/$pid/fd 2> /dev/null | grep -q config.fifo && break; sleep 0.01; done; kill "
      "-" +
      std::string(GetParam()) +
      " $pid; (trap 'kill $s; exit' TERM; sleep 10 & s=$!; wait $s; kill -KILL $pid) 2> /dev/null & watchdog=$!; "
      "wait $pid; echo $? > fifo.status; kill $watchdog";
  run("(" + script + ")");
  EXPECT_EQ(std::stoi(testing::read_text(directory_ / "fifo.status")), 5) << "137: killed by the watchdog after 10 s";
  EXPECT_EQ(testing::read_text(directory_ / "fifo.err"), "simapp: error: config.fifo: stopped by SIG" +
                                                             std::string(GetParam()) +
                                                             " while waiting for the pipe's writer; nothing was run\n");
  EXPECT_EQ(testing::read_text(directory_ / "fifo.out"), "");
}

// SIGTERM: what Slurm and mpirun send before a kill; SIGHUP: a closed terminal or ssh session;
// SIGINT: Ctrl-C.
INSTANTIATE_TEST_SUITE_P(Signals, StopSignalTest, ::testing::Values("TERM", "HUP", "INT"));

TEST_F(InterruptedRunTest, AConfigurationFromAPipeIsWaitedForSayingSo) {
  // The writer comes 1.5 s after simapp opened the pipe: simapp says what it waits for after 1 s,
  // then reads and validates.
  const Outcome outcome =
      run("(mkfifo config.fifo; " + launcher(1) + binary() +
          " config.fifo --validate & pid=$!; for n in $(seq 300); do ls -l /proc/$pid/fd 2> /dev/null | grep -q "
          "config.fifo && break; sleep 0.01; done; sleep 1.5; cat case.yaml > config.fifo; wait $pid)");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.err,
            "simapp: waiting for something to write the configuration into the pipe 'config.fifo' (Ctrl-C stops)\n");
  EXPECT_TRUE(outcome.out.starts_with("config.fifo: configuration is valid\n")) << outcome.out;
}

TEST_F(InterruptedRunTest, AWallLimitStopsTheRunWithACheckpointBeforeItAndARestartContinuesIt) {
  // A run far longer than its limit: it stops at some step S, wherever the machine's speed puts it.
  const double limit = 2.0;
  const auto started = std::chrono::steady_clock::now();
  const Outcome cut =
      simapp("--set time.sim_time=" + sim_time(1000000) + " --set output.checkpoint_every=" + sim_time(1000000) +
             " --set output.dir=out --set execution.wall_limit=" + text(limit));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(cut.exit_code, 5) << cut.out << cut.err;
  EXPECT_LT(seconds, limit + 1.0) << "it ends before the limit, but for the process's own ending";
  std::smatch stopped;
  ASSERT_TRUE(
      std::regex_search(cut.out, stopped,
                        std::regex(R"(stopped by the wall-clock limit \(execution.wall_limit 2 s\) at step )"
                                   R"((\d+) of 1000000 .*; checkpoint in 'out': continue with --restart latest)")))
      << cut.out;
  const int step = std::stoi(stopped[1]);
  char checkpoint[64];
  std::snprintf(checkpoint, sizeof checkpoint, "checkpoint_%06d.h5", step);
  EXPECT_TRUE(fs::exists(out() / checkpoint)) << cut.out;

  // Continued to step S + 30 it ends as a run of S + 30 steps without the cut, bit for bit.
  const std::string rest = "--set time.sim_time=" + sim_time(step + 30) + " --set output.every=" + every(step + 30);
  const Outcome continued = simapp(rest + " --set output.dir=out --restart latest");
  ASSERT_EQ(continued.exit_code, 0) << continued.err;
  ASSERT_EQ(simapp(rest + " --set output.dir=reference").exit_code, 0);
  fs::remove(directory_ / "reference" / "fields_000000.nc");  // the restart writes the snapshots after S only
  expect_same_snapshots(directory_ / "reference", out());
  // The continuation leaves the checkpoint of its last step: the run says it is complete.
  const Outcome again = simapp(rest + " --set output.dir=out --restart latest");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(std::regex_search(again.out, std::regex(R"(the run is complete)"))) << again.out;
}

TEST_F(InterruptedRunTest, AClosedStandardOutputStopsThePrintingNotTheRun) {
  // `simapp … | head -1`: the reader goes after the first line; the run ends as it would have.
  std::string script = command(long_run() + " --set output.dir=out");
  script += " 2> run.err; echo $? > run.status";
  const Outcome outcome = run("(" + script + ") | head -1");
  EXPECT_EQ(std::stoi(testing::read_text(directory_ / "run.status")), 0) << testing::read_text(directory_ / "run.err");
  EXPECT_TRUE(outcome.out.starts_with("simapp ")) << outcome.out;
  EXPECT_TRUE(fs::exists(out() / "fields_000300.nc")) << "the run went on to its end";
  EXPECT_EQ(testing::read_text(directory_ / "run.err"),
            "simapp: warning: standard output was closed by its reader; the run goes on without printing\n");
}

TEST_F(InterruptedRunTest, ASnapshotWrittenBeforeAFailedOutputIsKept) {
  // Too long a time step and no health check: an output finds the state no longer finite. The
  // snapshot of the output before it, written while the steps went on, is still published.
  const double every_seconds = 10.0;
  const Outcome outcome = simapp(
      "--set time.cfl=2 --set execution.check_every=0 --set time.sim_time=300 "
      "--set output.dir=out --set output.every=" +
      text(every_seconds));
  ASSERT_EQ(outcome.exit_code, 4) << outcome.err;
  std::smatch failed;
  ASSERT_TRUE(std::regex_search(outcome.err, failed, std::regex(R"(^simapp: error: step (\d+) .*no longer finite)")))
      << outcome.err;
  const long failed_step = std::stol(failed[1]);
  const double dt_at_cfl_2 = 2.0 * 500.0 / 450.0;
  long newest = -1;
  for (const std::string& name : result_files(out())) newest = std::max(newest, std::stol(name.substr(7, 6)));
  EXPECT_GE(newest, failed_step - static_cast<long>(std::ceil(every_seconds / dt_at_cfl_2)))
      << "the snapshot of the output before step " << failed_step << " is there";
  char name[32];
  std::snprintf(name, sizeof name, "fields_%06ld.nc", newest);
  EXPECT_NE(testing::read_text(out() / "fields.xmf").find(name), std::string::npos) << "and indexed";
  EXPECT_TRUE(std::isfinite(io::read_dataset(out() / name, "theta_prime").front()));
}

TEST_F(InterruptedRunTest, RestartOfAFinishedRunHasNothingToDo) {
  const std::string arguments =
      "--set time.sim_time=" + sim_time(6) + " --set output.dir=out --set output.checkpoint_every=" + every(3);
  ASSERT_EQ(simapp(arguments).exit_code, 0);
  const Outcome again = simapp(arguments + " --restart latest");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(std::regex_search(again.out, std::regex(R"(checkpoint_000006\.h5: the run is complete)"))) << again.out;
}

TEST_F(InterruptedRunTest, BlowUpStopsBeforeAnyNonFiniteResultIsWritten) {
  // Gravity waves in a 40 km high domain on 40 x 20 cells go unstable between steps 120 and 150;
  // without the health check (which stops the run at step 10) the state is refused at the
  // first output that is not finite.
  const Outcome outcome = simapp(
      "--set case=gravity_waves --set grid.zlen=40000 --set time.sim_time=600 "
      "--set output.every=50 --set output.checkpoint_every=50 --set output.dir=out "
      "--set execution.check_every=0");
  EXPECT_EQ(outcome.exit_code, 4);
  EXPECT_TRUE(
      std::regex_match(outcome.err, std::regex(R"(simapp: error: step 150 \(t = 250 s\): the solution is no )"
                                               R"(longer finite: (dens|umom|wmom|rhot) is not finite at cell )"
                                               R"(\(i, k\) = \(\d+, \d+\); nothing was written at this step\n)")))
      << outcome.err;
  EXPECT_FALSE(fs::exists(out() / "fields_000150.nc"));
  ASSERT_TRUE(fs::exists(out() / "checkpoint_000120.h5")) << "the last good checkpoint is kept";
  for (const std::string& name : result_files(out())) {
    const bool checkpoint = name.starts_with("checkpoint_");
    for (const char* dataset : {"rho_prime", "u", "w", "theta_prime"}) {
      if (checkpoint && std::string(dataset) != "u") continue;
      for (double value : io::read_dataset(out() / name, checkpoint ? "state" : dataset))
        ASSERT_TRUE(std::isfinite(value)) << name << " " << dataset;
    }
  }
}

}  // namespace
}  // namespace simapp
