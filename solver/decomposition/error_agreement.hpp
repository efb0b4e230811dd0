#pragma once
/// Errors the ranks of a job agree on. An action that may fail on some ranks only is followed
/// by one collective step after which either every rank goes on or every rank throws the same
/// Error (the lowest failing rank's, marked ErrorReach::every_rank): the job reports it once,
/// leaves normally, and no rank is left waiting in a collective call its peers never reach.
#include <mpi.h>

#include <functional>
#include <string>

namespace simapp {

/// Runs `action` on every rank of `comm`, then agrees: when it threw on any rank, every rank
/// throws the lowest failing rank's Error (another exception counts as an internal error).
/// Collective.
void run_agreed(MPI_Comm comm, const std::function<void()>& action);

/// Runs `action` on rank 0 of `comm` only, then agrees as run_agreed does. Collective.
void run_on_root_agreed(MPI_Comm comm, const std::function<void()>& action);

/// `text` on every rank of `comm`, as rank `from` holds it. Collective.
std::string broadcast_text(std::string text, int from, MPI_Comm comm);

}  // namespace simapp
