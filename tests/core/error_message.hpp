#pragma once

// What a failing call says, for tests that check plinth's error messages.

#include <plinth/errors.hpp>

#include <functional>
#include <string>

namespace plinth::test {

/// The what() of the `E` (LogicError unless named) that `call` throws, or a text saying it
/// threw none; an exception of another type propagates, failing the test.
template <typename E = LogicError>
std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const E& error) {
    return error.what();
  }
  return "(no exception of the expected type)";
}

}  // namespace plinth::test
