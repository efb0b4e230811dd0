#include "solver/decomposition/error_agreement.hpp"

#include <climits>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "foundation/error.hpp"

namespace simapp {

namespace {

/// The failure of `action` on this rank, if any.
std::optional<Error> failure_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error;
  } catch (const std::bad_alloc&) {
    return out_of_memory_error();
  } catch (const std::exception& error) {
    return Error(ExitCode::internal, "internal", error.what());
  }
  return std::nullopt;
}

/// Agrees on `failure` (this rank's): returns when no rank failed, else throws the lowest
/// failing rank's error on every rank.
void agree(const std::optional<Error>& failure, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int first_failing = failure ? rank : INT_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == INT_MAX) return;
  const bool mine = rank == first_failing;
  int code = mine ? static_cast<int>(failure->code()) : 0;
  MPI_Bcast(&code, 1, MPI_INT, first_failing, comm);
  const std::string where = broadcast_text(mine ? failure->where() : std::string(), first_failing, comm);
  const std::string what = broadcast_text(mine ? std::string(failure->what()) : std::string(), first_failing, comm);
  throw Error(static_cast<ExitCode>(code), where, what, ErrorReach::every_rank);
}

}  // namespace

std::string broadcast_text(std::string text, int from, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, from, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, from, comm);
  return text;
}

void run_agreed(MPI_Comm comm, const std::function<void()>& action) { agree(failure_of(action), comm); }

void run_on_root_agreed(MPI_Comm comm, const std::function<void()>& action) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agree(rank == 0 ? failure_of(action) : std::nullopt, comm);
}

}  // namespace simapp
