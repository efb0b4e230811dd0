#pragma once
/// A run's log: the lines it prints (rank 0's header, progress lines and closing lines, on
/// stdout), and any rank's warnings and error line (on stderr), as the terminal shows them; and,
/// once the run may write into output.dir, every one of them with its time stamp in
/// output.dir/simapp.log, whose lines stay when standard output has gone (a closed pipe, a
/// batch system that kept nothing). Made of spdlog loggers: rank 0's lines go to a console sink
/// and the file sink, warnings and errors to an stderr sink and the file sink.
///
/// The file is appended to (a restart continues the log of the run it continues); each run's
/// lines start with a line of its own, `simapp <version> (git <commit>) started: <what>`, by
/// which simapp tells its logs from other files (is_run_log). Lines written before the file is
/// opened are kept until then (or dropped, for a run that writes no results). A log that can no
/// longer be written (a full disk) is a warning, once, and the run goes on. Each line is one
/// line: control characters in it, a newline too, are escaped (foundation/printable_text.hpp),
/// so that no name or value from outside forges a line of its own or reaches the terminal as a
/// control sequence.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace simapp::io {

/// The log's name in output.dir.
inline constexpr const char* run_log_name = "simapp.log";

class RunLog {
 public:
  /// `console`: where this rank's printed lines go (stdout on rank 0); nullptr on a rank that
  /// prints nothing, whose warnings and errors alone reach the file. `diagnostics`: where
  /// warnings and errors go (stderr). `started`: what the log's first line says of the run (its
  /// command line, host, process). `console_warning`: the warning the console gave when its
  /// reader went away ("" until then), which the file then records.
  RunLog(std::FILE* console, std::FILE* diagnostics, std::string_view started,
         std::function<std::string_view()> console_warning = {});
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;
  ~RunLog();

  /// A printed line (without its newline): the console and the file.
  void print(std::string_view line);
  /// A line for the file alone (on a printing rank).
  void note(std::string_view line);
  /// A warning line (`simapp: warning: …`) of this rank: stderr and the file.
  void warning(std::string_view line);
  /// The error line (`simapp: error: …`) of this rank: stderr, after what the console holds, and
  /// the file.
  void error(std::string_view line);

  /// From now on the log goes to `path` too: on a printing rank every line, those kept so far
  /// first, appended to the file (created when missing; never through a link or into anything but
  /// a regular file); on any other rank its warnings and errors, each appended when it comes.
  /// Throws FileFailure when the file cannot be opened.
  void write_to(const std::filesystem::path& path);
  /// The log has no file: the lines are no longer kept for one.
  void without_file();

 private:
  struct Loggers;
  void after_writing();

  std::unique_ptr<Loggers> loggers_;
  bool prints_;
  std::function<std::string_view()> console_warning_;
  bool console_warning_noted_ = false;
};

/// Whether `path` holds a log simapp wrote: its first line is a run's start line.
bool is_run_log(const std::filesystem::path& path);

}  // namespace simapp::io
