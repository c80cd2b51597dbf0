#pragma once

#include <plinth/export.hpp>

#include <string>
#include <string_view>

namespace plinth {

/// `text` made safe to print on a terminal: control characters (C0, DEL and the C1 range) and
/// bytes that are not valid UTF-8 become escapes (`\n`, `\t`, `\x1b`, ...), a backslash
/// becomes `\\`, and everything else (printable ASCII and valid UTF-8) is kept. plinth applies
/// it to every file path and plugin-supplied string it prints, so a hostile file name or
/// device name can neither fake a line of output nor send escape sequences to the terminal.
/// Never throws except std::bad_alloc; any thread may call it.
///
///     plinth::printable("a\nb\x1b[2J");  // "a\\nb\\x1b[2J"
PLINTH_EXPORT std::string printable(std::string_view text);

}  // namespace plinth
