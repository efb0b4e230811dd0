#pragma once
/// A time-stepped run: from its start (fresh, or a checkpoint) to its end, with its header,
/// progress lines, outputs, closing lines, and a clean stop on SIGTERM.
#include "app/command_line.hpp"
#include "app/setup.hpp"
#include "solver/decomposition/decomposition.hpp"

namespace simapp::app {

/// Runs the case; returns the exit code (0, or ExitCode::interrupted when asked to stop).
int run_case(const Setup& setup, const Decomposition& decomposition, const CommandLine& command_line);

}  // namespace simapp::app
