#pragma once
/// Standard output that may lose its reader without ending the run: `simapp … | head -1`, or
/// a batch system's log pipe that goes away. The run's printing goes through a stream whose
/// writes reach file descriptor 1 as before; once a write meets a closed pipe (EPIPE: SIGPIPE
/// is ignored, stop_signals.hpp), the printing stops, stderr says so once, and the run goes on
/// (its log file, io/output/run_log.hpp, too).
#include <string_view>

namespace simapp::app {

/// Makes `stdout` such a stream (once, before anything is printed). Buffered as stdout was:
/// by lines on a terminal, in blocks otherwise.
void keep_running_when_stdout_closes();

/// The warning stderr got when standard output's reader went away (without its newline); ""
/// while it is there.
std::string_view standard_output_closed_warning();

}  // namespace simapp::app
