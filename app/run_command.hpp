#pragma once
/// A time-stepped run: from its start (fresh, or a checkpoint) to its end, with its header,
/// progress lines, outputs, closing lines, a clean stop on SIGTERM, and its record (simapp.log
/// and run.json in output.dir).
#include "app/command_line.hpp"
#include "app/run_record.hpp"
#include "app/setup.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp::app {

/// Runs the case, printing through `record`'s log and filling in its summary; returns the exit
/// code (0, or ExitCode::interrupted when asked to stop), the record ended with it.
int run_case(const Setup& setup, const Decomposition& decomposition, const CommandLine& command_line,
             RunRecord& record);

}  // namespace simapp::app
