#pragma once

// PLINTH_DEBUG: one line on stderr per decision, for the topics the user asked for.

#include <fmt/format.h>

#include <string_view>

namespace plinth::detail {

enum class DebugTopic { loader, compile, cache, transfer };

/// Whether PLINTH_DEBUG names `topic` (or "all"). Read once per process.
bool debug_enabled(DebugTopic topic);

/// Writes "plinth[<topic>]: <message>" to stderr, the message made printable().
void debug_write(DebugTopic topic, std::string_view message);

/// Writes "plinth: warning: <message>" to stderr, the message made printable(), whatever
/// PLINTH_DEBUG says: for settings plinth ignores that the user surely meant.
void warn(std::string_view message);

template <class... Args>
void debug(DebugTopic topic, fmt::format_string<Args...> format, Args&&... args) {
  if (debug_enabled(topic)) debug_write(topic, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace plinth::detail
