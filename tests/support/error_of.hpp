#pragma once
/// The simapp Error an action throws, for tests of what it says; a test failure when it throws none.
#include <gtest/gtest.h>

#include "foundation/error.hpp"

namespace simapp::testing {

template <class Action>
Error error_of(Action action) {
  try {
    action();
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "no error thrown";
  return Error{ExitCode::success, "", ""};
}

}  // namespace simapp::testing
