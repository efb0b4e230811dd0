#pragma once
/// What a run leaves about itself in output.dir beside its results: simapp.log, its log
/// (io/output/run_log.hpp), and run.json, its summary (io/output/run_summary.hpp), both rank
/// 0's. They are written only while the run holds the directory (its output session, with the
/// lock, is opened here and kept until the record is complete, whatever the outcome) and only once the run may write
/// there: after it has taken the directory over (the results it replaces removed, an earlier
/// log and run.json among them), or from its start for a restart, whose log and run.json
/// continue those of the run it continues. A run refused before that leaves an earlier run's
/// record as it was; a run that writes no results writes neither.
#include <mpi.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/mpi_session.hpp"
#include "foundation/error.hpp"
#include "io/output/output_session.hpp"
#include "io/output/run_log.hpp"
#include "io/output/run_summary.hpp"

namespace simapp::app {

/// Whether the log and run.json there continue an earlier run's (a restart) or are the run's own.
enum class RecordStart { fresh, continued };

/// Whether run.json is written at the end, or left as it is (a restart of a finished run, which
/// did nothing: the run.json of the run that finished it stays).
enum class SummaryFile { write, keep };

class RunRecord {
 public:
  /// `command`: the job's command line (rank 0's argv), started at `started`.
  RunRecord(const MpiSession& mpi, const std::vector<std::string>& command,
            std::chrono::system_clock::time_point started);

  io::RunLog& log() { return log_; }
  io::RunSummary& summary() { return summary_; }

  /// Collective over `comm`: opens the run's output session (io::OutputSession, with output.dir's
  /// lock), kept until the record is complete, so that no other run may start there before.
  io::OutputSession& open_output(const io::LoadedConfig& config, MPI_Comm comm);
  /// Collective over `comm`: from now on the log goes to the owned directory's simapp.log (its
  /// lines so far first) and run.json is written there at the end. A continued record must be
  /// simapp's own, and run.json replaceable (bad input, agreed, otherwise: as for any file named
  /// like a result).
  void write_into_directory(RecordStart start, MPI_Comm comm);
  /// The run writes nothing into output.dir: no file is kept for its log.
  void write_nowhere();

  /// The run ended with `code` because of `reason` (this rank): the log's closing line and, on
  /// rank 0, run.json where the record goes into output.dir. Never throws: a record that cannot
  /// be written is a warning.
  void end(ExitCode code, const std::string& reason, SummaryFile file = SummaryFile::write);
  /// What MpiSession::report prints through: the error line into the log (stderr and the file),
  /// and the run ended with `code`.
  void fail(ExitCode code, const std::string& line);

 private:
  bool root_;
  io::RunLog log_;
  io::RunSummary summary_;
  std::optional<io::OutputSession> output_;
  std::filesystem::path directory_;
  bool into_directory_ = false;  ///< the log and run.json go into directory_
};

}  // namespace simapp::app
