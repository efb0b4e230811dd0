#pragma once
/// The process's MPI lifetime (MPI_Init_thread … MPI_Finalize) and how errors leave it:
/// an error every rank meets alike (bad input found before any work, or a UniformError the
/// ranks agreed on) is printed by rank 0 and every rank exits with its code; any other error
/// is printed by the rank that met it, with its rank, and MPI_Abort ends the whole job with
/// its code, so no rank is left waiting.
#include <mpi.h>

#include <string>

#include "kernels/backend/error.hpp"

namespace simapp::app {

/// An Error that every rank throws alike, having agreed on it: reported once, by rank 0,
/// and the job ends with its code without an abort.
class UniformError : public Error {
 public:
  explicit UniformError(const Error& error) : Error(error) {}
};

/// Runs `action` on every rank of `comm` (collective). When it throws an Error on some ranks,
/// every rank throws the UniformError of the lowest of them.
template <class Action>
void on_every_rank_alike(MPI_Comm comm, Action action) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int code = 0;
  std::string message;  // "where\nwhat"
  try {
    action();
  } catch (const Error& e) {
    code = static_cast<int>(e.code());
    message = e.where() + "\n" + e.what();
  }
  int failing = code != 0 ? rank : size;
  MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, comm);
  if (failing == size) return;
  MPI_Bcast(&code, 1, MPI_INT, failing, comm);
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, failing, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, failing, comm);
  const auto newline = message.find('\n');
  throw UniformError(Error(static_cast<ExitCode>(code), message.substr(0, newline), message.substr(newline + 1)));
}

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  ~MpiSession();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  /// For an error all ranks met alike: rank 0 prints it; returns its exit code.
  int uniform_error(const Error& error) const;
  /// For an error this rank alone may have met: prints it with the rank and aborts the job.
  [[noreturn]] void abort_job(const Error& error) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

/// The node-local rank (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, or a shared-memory split).
int node_local_rank();

}  // namespace simapp::app
