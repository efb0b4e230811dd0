#pragma once
/// How a batch job is ended without losing work: SIGTERM (what Slurm and mpirun send before
/// they kill a job), SIGINT (Ctrl-C) and SIGHUP (a closed terminal or ssh session, what some
/// schedulers send) ask the run to stop at the end of the chunk that is running, write a
/// checkpoint and exit with ExitCode::interrupted (a comparison stops after its timed run, a
/// wait for a configuration from a pipe at once); a second one ends the process at once. A
/// file-size limit (SIGXFSZ) makes writes fail with EFBIG, an I/O error, and a closed pipe
/// (SIGPIPE: `simapp … | head`) makes them fail with EPIPE (standard_output.hpp), instead of
/// killing the process.

namespace simapp::app {

/// Installs the handlers (once, before any work).
void install_signal_handlers();

/// Whether SIGTERM, SIGINT or SIGHUP arrived.
bool stop_requested();

/// The name of the signal that asked to stop ("SIGTERM", "SIGINT", "SIGHUP"); empty when none did.
const char* stop_signal_name();

}  // namespace simapp::app
