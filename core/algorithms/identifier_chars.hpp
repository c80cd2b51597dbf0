#pragma once

// The characters of C identifiers, for the scanners of kernel source text (the elementwise
// template's placeholders, outside_uses): one home for them.

namespace plinth::detail {

/// Whether `c` may start a C identifier (a letter or '_').
constexpr bool is_ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Whether `c` is a decimal digit.
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Whether `c` may continue a C identifier (a letter, a digit or '_').
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

}  // namespace plinth::detail
