#pragma once

// The bytes of one cache entry file: a header (magic, format version, key, payload size,
// checksum) and the payload, a device's program binary. A file that does not decode is never
// trusted: the caller rebuilds and replaces it.

#include "cache/cache_key.hpp"

#include <plinth/export.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace plinth::detail {

/// Bytes of the header before the payload.
inline constexpr std::size_t cache_entry_header_size = 48;

/// The entry file for `payload` under `key`. Throws std::bad_alloc only.
PLINTH_EXPORT std::vector<std::byte> encode_cache_entry(const CacheKey& key,
                                                        std::span<const std::byte> payload);

/// The payload of entry file `bytes` when it is a valid entry for `key`; otherwise why not
/// ("truncated", "not a plinth cache entry", "format version 7", "checksum mismatch", ...).
/// Never throws (besides std::bad_alloc).
PLINTH_EXPORT std::variant<std::vector<std::byte>, std::string> decode_cache_entry(
    const CacheKey& key, std::span<const std::byte> bytes);

}  // namespace plinth::detail
