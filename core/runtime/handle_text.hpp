#pragma once

// The printable and binary forms of the handles processes hand each other (CommunicatorId,
// IpcMemoryHandle, IpcEventHandle): API shortcuts and hex text, read back strictly, since the
// text may come from anywhere. Every check throws LogicError naming `call` and the problem.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// The most characters an API shortcut in a handle may have.
inline constexpr std::size_t max_handle_shortcut = 64;

/// Checks that `shortcut` is 1 to 64 of a-z, 0-9 and _. Throws LogicError.
void check_handle_shortcut(std::string_view call, std::string_view shortcut);

/// Appends `bytes` to `text` as lower-case hex, two digits a byte.
void append_hex(std::string& text, std::span<const std::byte> bytes);

/// The bytes that `hex` (two digits a byte, either case) writes; `what` names the field in
/// messages ("the id"). Throws LogicError for an odd length or a character that is not a hex
/// digit.
std::vector<std::byte> parse_hex(std::string_view call, std::string_view what,
                                 std::string_view hex);

/// The decimal number `text` writes (digits only, no sign, fits std::uint64_t); `what` names
/// the field in messages. Throws LogicError.
std::uint64_t parse_decimal(std::string_view call, std::string_view what, std::string_view text);

}  // namespace plinth::detail
