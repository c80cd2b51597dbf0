// Fuzzes CommunicatorId::from_string (include/plinth/collectives.hpp): the text one rank hands
// the others, which may come from a file, a socket or an environment variable. Input: the
// text. Malformed text is a LogicError; an id that parses must survive to_string() and
// from_string() unchanged, and from_bytes() of its parts must give the same id.

#include "fuzz_common.hpp"

#include <plinth/collectives.hpp>
#include <plinth/errors.hpp>

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto id = plinth::CommunicatorId::from_string(text);
    PLINTH_FUZZ_CHECK(!id.bytes().empty());
    PLINTH_FUZZ_CHECK(id.bytes().size() <= 4096);
    const auto written = id.to_string();
    PLINTH_FUZZ_CHECK(plinth::CommunicatorId::from_string(written) == id);
    PLINTH_FUZZ_CHECK(plinth::CommunicatorId::from_bytes(id.api_shortcut(), id.bytes()) == id);
    const auto colon = written.find(':');
    PLINTH_FUZZ_CHECK(colon != std::string::npos);
    PLINTH_FUZZ_CHECK(written.substr(0, colon) == id.api_shortcut());
  } catch (const plinth::Error&) {
  }
  return 0;
}
