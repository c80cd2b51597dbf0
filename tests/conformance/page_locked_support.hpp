#pragma once

// What the page-locked tests (page_locked_test.cpp, page_locked_pool_test.cpp) share.

#include <plinth/plinth.hpp>

#include <optional>
#include <string>

namespace plinth::conformance {

/// Why the context's backend has no page-locked memory (the LogicError's message), or nullopt
/// when it has.
inline std::optional<std::string> lacks_page_locked(const Context& context) {
  try {
    HostArray::page_locked(context, {1}, DType::uint8());
    return std::nullopt;
  } catch (const LogicError& e) {
    return std::string(e.what());
  }
}

}  // namespace plinth::conformance
