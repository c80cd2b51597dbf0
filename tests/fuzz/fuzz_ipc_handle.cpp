// Fuzzes the readers of IpcMemoryHandle and IpcEventHandle (include/plinth/ipc.hpp): the text
// and bytes one process hands another, which may come from a file, a socket or an environment
// variable. Input: a selector byte (bit 0: memory or event handle; bit 1: text or bytes), then
// the text or bytes. Malformed input is a LogicError; a handle that parses must survive
// to_string() and to_bytes() and their readers unchanged, and from_parts() of its parts.

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>
#include <plinth/ipc.hpp>

#include <span>
#include <string>
#include <string_view>

namespace {

template <class Handle>
void check_round_trips(const Handle& handle) {
  PLINTH_FUZZ_CHECK(!handle.vendor_handle().empty());
  PLINTH_FUZZ_CHECK(handle.vendor_handle().size() <= 4096);
  PLINTH_FUZZ_CHECK(!handle.api_shortcut().empty());
  PLINTH_FUZZ_CHECK(Handle::from_string(handle.to_string()) == handle);
  PLINTH_FUZZ_CHECK(Handle::from_bytes(handle.to_bytes()) == handle);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool memory = (data[0] & 1) == 0;
  const bool text = (data[0] & 2) == 0;
  const std::string_view chars(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  try {
    if (memory) {
      const auto handle = text ? plinth::IpcMemoryHandle::from_string(chars)
                               : plinth::IpcMemoryHandle::from_bytes(bytes);
      PLINTH_FUZZ_CHECK(handle.size() > 0);
      PLINTH_FUZZ_CHECK(handle.offset() + handle.size() >= handle.offset());  // no wrap
      check_round_trips(handle);
      PLINTH_FUZZ_CHECK(plinth::IpcMemoryHandle::from_parts(handle.api_shortcut(),
                                                            handle.vendor_handle(), handle.size(),
                                                            handle.offset()) == handle);
    } else {
      const auto handle = text ? plinth::IpcEventHandle::from_string(chars)
                               : plinth::IpcEventHandle::from_bytes(bytes);
      check_round_trips(handle);
      PLINTH_FUZZ_CHECK(plinth::IpcEventHandle::from_parts(handle.api_shortcut(),
                                                           handle.vendor_handle()) == handle);
    }
  } catch (const plinth::Error&) {
  }
  return 0;
}
