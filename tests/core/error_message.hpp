#pragma once

// What a failing call says, and checks of texts, for tests that check plinth's messages and
// generated code.

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>

/// Expects `text` (evaluated once) to contain `part`, printing both where it does not.
#define EXPECT_CONTAINS(text, part)                                                                \
  do {                                                                                             \
    const std::string text_ = (text);                                                              \
    EXPECT_NE(text_.find(part), std::string::npos) << "missing: " << (part) << "\nin:\n" << text_; \
  } while (false)

/// Expects `text` (evaluated once) to start with `part`.
#define EXPECT_STARTS_WITH(text, part)            \
  do {                                            \
    const std::string text_ = (text);             \
    EXPECT_EQ(text_.rfind(part, 0), 0u) << text_; \
  } while (false)

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
