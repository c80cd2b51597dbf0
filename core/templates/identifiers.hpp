#pragma once

// C identifiers, for everything that reads or checks names in kernel source text (templates,
// the elementwise kernels' placeholders and declarations, dtype fields): one home for them.

#include <string_view>

namespace plinth::detail {

/// Whether `c` may start a C identifier (a letter or '_').
constexpr bool is_ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Whether `c` is a decimal digit.
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Whether `c` may continue a C identifier (a letter, a digit or '_').
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

/// Whether `name` is a C identifier: not empty, a letter or '_' first, then letters, digits
/// and '_'. Throws nothing.
constexpr bool is_c_identifier(std::string_view name) noexcept {
  if (name.empty() || !is_ident_start(name.front())) return false;
  for (const char c : name) {
    if (!is_ident_char(c)) return false;
  }
  return true;
}

}  // namespace plinth::detail
