#pragma once
/// The process's MPI lifetime (MPI_Init_thread … MPI_Finalize) and how errors leave it. An
/// error every rank knows (bad input found before any work, or one the ranks agreed on) is
/// printed once, by rank 0, and every rank leaves normally with its code; so is any error of a
/// job of one rank (no MPI_Abort banner). Any other error is printed by the rank that met it,
/// with its rank, and MPI_Abort ends the whole job with its code, so no rank is left waiting.
/// Printed errors are one line: control characters in them are escaped.
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "foundation/error.hpp"

namespace simapp::app {

/// Puts an error line (error_line's, its newline included) where it goes: stderr, or the run's
/// log (which also writes it to stderr).
using ErrorPrinter = std::function<void(const std::string& line)>;

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  ~MpiSession();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  /// Reports `error` as its reach asks (see above), through `print` where given, and returns
  /// its exit code; does not return when the job has to be aborted (`print` has run by then).
  int report(const Error& error, const ErrorPrinter& print = {}) const;
  /// For an error all ranks met alike: rank 0 prints it; returns its exit code.
  int uniform_error(const Error& error, const ErrorPrinter& print = {}) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

/// The job's command line: rank 0's `argv`, on every rank. mpirun gives every rank the same
/// arguments, but a job whose ranks act on different input hangs or writes wrong results, so
/// no rank acts on its own.
class JobArguments {
 public:
  /// Collective over MPI_COMM_WORLD.
  JobArguments(const MpiSession& mpi, int argc, char** argv);
  JobArguments(const JobArguments&) = delete;
  JobArguments& operator=(const JobArguments&) = delete;

  int argc() const { return static_cast<int>(arguments_.size()); }
  char** argv() { return pointers_.data(); }
  const std::vector<std::string>& words() const { return arguments_; }

 private:
  std::vector<std::string> arguments_;
  std::vector<char*> pointers_;  ///< into arguments_, then nullptr, as main's argv
};

/// `simapp: error: [rank N: ]<where>: <what>` with control characters escaped (\n, \t, \xNN).
std::string error_line(const Error& error, int rank = -1);

/// The node-local rank (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, or a shared-memory split).
int node_local_rank();

/// The number of ranks on this node (collective over MPI_COMM_WORLD).
int node_local_size();

}  // namespace simapp::app
