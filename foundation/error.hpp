#pragma once
/// simapp's one error type: every failure the user can cause or meet carries the place it
/// happened and the process exit code it maps to (documented in docs/usage.md, Exit codes).
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "foundation/name_table.hpp"

namespace simapp {

/// Process exit codes; a small fixed set so batch scripts can act on them.
enum class ExitCode : int {
  success = 0,
  internal = 1,     ///< a bug or an unexpected system failure
  bad_input = 2,    ///< configuration, command line or input files
  io = 3,           ///< reading or writing results failed
  numerical = 4,    ///< the solution blew up (NaN/Inf or CFL violation)
  interrupted = 5,  ///< stopped by a signal or the wall limit; a run writes a checkpoint: continue with --restart
};

/// What each exit code means, as run.json and the documentation (docs/usage.md) say it.
inline constexpr std::array<std::pair<ExitCode, std::string_view>, 6> exit_code_meanings{{
    {ExitCode::success, "success"},
    {ExitCode::internal, "internal error"},
    {ExitCode::bad_input, "bad input"},
    {ExitCode::io, "I/O error"},
    {ExitCode::numerical, "numerical failure"},
    {ExitCode::interrupted, "interrupted"},
}};

/// What `code` means ("unknown" for a value outside the set).
constexpr std::string_view meaning(ExitCode code) { return name_in(exit_code_meanings, code); }

/// Which ranks of an MPI job know of an error: the one that met it, or every rank (the ranks
/// agreed on it, e.g. bad input or a write that failed for all). An error every rank knows is
/// reported once and every rank leaves normally; any other ends the job.
enum class ErrorReach { this_rank, every_rank };

/// An error reported as one line `simapp: error: <where>: <what>`.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string where, const std::string& what, ErrorReach reach = ErrorReach::this_rank)
      : std::runtime_error(what), code_(code), where_(std::move(where)), reach_(reach) {}

  ExitCode code() const { return code_; }
  const std::string& where() const { return where_; }
  ErrorReach reach() const { return reach_; }

 private:
  ExitCode code_;
  std::string where_;
  ErrorReach reach_;
};

/// What an allocation that failed (std::bad_alloc) is reported as: bad input, since the run
/// asked for more memory than the process may take.
inline Error out_of_memory_error(ErrorReach reach = ErrorReach::this_rank) {
  return Error(ExitCode::bad_input, "memory",
               "an allocation failed: the run needs more memory than this process may take (the node's memory, "
               "ulimit -v, or a batch system's memory limit): use more ranks or a smaller grid",
               reach);
}

}  // namespace simapp
