#pragma once

// The answers of select_devices(interactive = true), parsed apart from the terminal so that
// they can be tested: "2", "0, 3", "" (the default in brackets), never "1xyz".

#include <plinth/export.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// What an answer chose, or why it is refused (then `problem` is set and `chosen` empty).
struct SelectionAnswer {
  std::vector<std::size_t> chosen;
  std::string problem;
};

/// Parses `line`, a choice of indices below `count` separated by commas or spaces. Empty (or
/// only spaces) takes `defaults`. With `wanted`, exactly that many must be chosen (grunnur:
/// "Exactly 2 devices must be selected"), else at least one. `what` names a choice in
/// messages ("device", "platform"). Refuses anything but digits, separators and spaces,
/// numbers out of range, and an index chosen twice.
PLINTH_EXPORT SelectionAnswer parse_selection(std::string_view line, std::size_t count,
                                              std::optional<std::size_t> wanted,
                                              const std::vector<std::size_t>& defaults,
                                              std::string_view what);

/// "[0, 1]": how the defaults are shown in a prompt.
PLINTH_EXPORT std::string bracketed(const std::vector<std::size_t>& indices);

}  // namespace plinth::detail
