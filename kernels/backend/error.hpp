#pragma once
/// simapp's one error type: every failure the user can cause or meet carries the place it
/// happened and the process exit code it maps to (documented in README.md).
#include <stdexcept>
#include <string>

namespace simapp {

/// Process exit codes; a small fixed set so batch scripts can act on them.
enum class ExitCode : int {
  success = 0,
  internal = 1,    ///< a bug or an unexpected system failure
  bad_input = 2,   ///< configuration, command line or input files
  io = 3,          ///< reading or writing results failed
  numerical = 4,   ///< the solution blew up (NaN/Inf or CFL violation)
};

/// An error reported as one line `simapp: error: <where>: <what>`.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string where, const std::string& what)
      : std::runtime_error(what), code_(code), where_(std::move(where)) {}

  ExitCode code() const { return code_; }
  const std::string& where() const { return where_; }

 private:
  ExitCode code_;
  std::string where_;
};

}  // namespace simapp
