// Fuzzes the compiled-program cache's entry reader (core/cache/cache_entry.hpp), from memory:
// the decision on a header and a file's size before the payload is read
// (cache_entry_header_problem) and the whole entry's decoding (decode_cache_entry). Input: the
// entry file's bytes. The key is taken from the input's own key field (bytes 16..31) where it
// has one, so that inputs get past the key check. Invariants: an entry is accepted only when
// it is exactly what encode_cache_entry writes for its payload; the header decision accepts
// only the size its header declares, within the limit; another key is always refused.

#include "fuzz_common.hpp"

#include "cache/cache_entry.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace {

using plinth::detail::cache_entry_header_problem;
using plinth::detail::cache_entry_header_size;
using plinth::detail::CacheKey;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  CacheKey key{0, 0};
  if (size >= 32) {
    std::memcpy(&key.high, data + 16, sizeof key.high);
    std::memcpy(&key.low, data + 24, sizeof key.low);
  }
  const auto header = bytes.first(std::min(size, cache_entry_header_size));
  const auto decoded = plinth::detail::decode_cache_entry(key, bytes);
  const auto* payload = std::get_if<std::vector<std::byte>>(&decoded);
  if (payload != nullptr) {
    PLINTH_FUZZ_CHECK(!payload->empty());
    PLINTH_FUZZ_CHECK(payload->size() + cache_entry_header_size == size);
    const auto encoded = plinth::detail::encode_cache_entry(key, *payload);
    PLINTH_FUZZ_CHECK(encoded.size() == size && std::memcmp(encoded.data(), data, size) == 0);
    PLINTH_FUZZ_CHECK(cache_entry_header_problem(key, header, size, size).empty());
    PLINTH_FUZZ_CHECK(!cache_entry_header_problem(key, header, size, size - 1).empty());
    const CacheKey other{key.high ^ 1, key.low};
    PLINTH_FUZZ_CHECK(!std::holds_alternative<std::vector<std::byte>>(
        plinth::detail::decode_cache_entry(other, bytes)));
  } else {
    PLINTH_FUZZ_CHECK(!std::get<std::string>(decoded).empty());
  }
  // The header decision for the file sizes a reader may meet: the input's, a 1.9 GiB file,
  // the largest; it accepts only the size the header declares, never over the limit.
  constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t file_size : {std::uint64_t{size}, std::uint64_t{15} << 27, no_limit}) {
    for (const std::uint64_t limit : {no_limit, std::uint64_t{1} << 20}) {
      const auto problem = cache_entry_header_problem(key, header, file_size, limit);
      if (!problem.empty()) continue;
      PLINTH_FUZZ_CHECK(size >= cache_entry_header_size);
      std::uint64_t declared = 0;
      std::memcpy(&declared, data + 32, sizeof declared);
      PLINTH_FUZZ_CHECK(file_size <= limit);
      PLINTH_FUZZ_CHECK(declared == file_size - cache_entry_header_size);
    }
  }
  return 0;
}
