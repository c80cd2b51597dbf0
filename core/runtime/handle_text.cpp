// Shortcut, hex and decimal fields of the handles processes hand each other.

#include "runtime/handle_text.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <charconv>

namespace plinth::detail {

namespace {

bool shortcut_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void check_handle_shortcut(std::string_view call, std::string_view shortcut) {
  if (shortcut.empty()) throw LogicError(fmt::format("{}: the API shortcut is empty", call));
  if (shortcut.size() > max_handle_shortcut) {
    throw LogicError(fmt::format("{}: the API shortcut has {} characters, more than {}", call,
                                 shortcut.size(), max_handle_shortcut));
  }
  for (std::size_t i = 0; i < shortcut.size(); ++i) {
    if (!shortcut_char(shortcut[i])) {
      throw LogicError(fmt::format(
          "{}: character {} of the API shortcut (byte 0x{:02x}) is not one of a-z, 0-9, _", call, i,
          static_cast<unsigned char>(shortcut[i])));
    }
  }
}

void append_hex(std::string& text, std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  text.reserve(text.size() + 2 * bytes.size());
  for (const auto byte : bytes) {
    const auto value = std::to_integer<unsigned>(byte);
    text += digits[value >> 4];
    text += digits[value & 15];
  }
}

std::vector<std::byte> parse_hex(std::string_view call, std::string_view what,
                                 std::string_view hex) {
  if (hex.size() % 2 != 0) {
    throw LogicError(
        fmt::format("{}: {} has an odd number ({}) of hex digits", call, what, hex.size()));
  }
  std::vector<std::byte> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = hex_value(hex[i]);
    const int low = hex_value(hex[i + 1]);
    if (high < 0 || low < 0) {
      const std::size_t bad = high < 0 ? i : i + 1;
      throw LogicError(fmt::format("{}: character {} of {} (byte 0x{:02x}) is not a hex digit",
                                   call, bad, what, static_cast<unsigned char>(hex[bad])));
    }
    bytes[i / 2] = static_cast<std::byte>(high * 16 + low);
  }
  return bytes;
}

std::uint64_t parse_decimal(std::string_view call, std::string_view what, std::string_view text) {
  if (text.empty()) throw LogicError(fmt::format("{}: {} is empty", call, what));
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      throw LogicError(fmt::format("{}: character {} of {} (byte 0x{:02x}) is not a decimal digit",
                                   call, i, what, static_cast<unsigned char>(text[i])));
    }
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    throw LogicError(
        fmt::format("{}: {} ({} digits) does not fit 64 bits", call, what, text.size()));
  }
  return value;
}

}  // namespace plinth::detail
