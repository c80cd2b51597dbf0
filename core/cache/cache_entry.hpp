#pragma once

// The bytes of one cache entry file: a header (magic, format version, key, payload size,
// checksum) and the payload, a device's program binary. A file that does not decode is never
// trusted: the caller rebuilds and replaces it. A reader judges the header and the file's size
// (cache_entry_header_problem) before it reads, or allocates, the payload.

#include "cache/cache_key.hpp"

#include <plinth/export.hpp>

#include <cstddef>
#include <cstdint>
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

/// Why an entry file of `file_size` bytes that begins with `header` (its first
/// cache_entry_header_size bytes, fewer only when the file is shorter) must not be read for
/// `key`: shorter than a header, not an entry ("not a plinth cache entry"), another format or
/// key, larger than `size_limit` ("larger than the cache's limit"), or not the size its header
/// declares ("truncated", "too long"). Empty when the payload may be read and checked. Never
/// throws (besides std::bad_alloc).
PLINTH_EXPORT std::string cache_entry_header_problem(const CacheKey& key,
                                                     std::span<const std::byte> header,
                                                     std::uint64_t file_size,
                                                     std::uint64_t size_limit);

/// The payload of entry file `bytes` when it is a valid entry for `key`; otherwise why not
/// ("truncated", "not a plinth cache entry", "format version 7", "checksum mismatch", ...):
/// cache_entry_header_problem() without a size limit, then the checksum. Never throws (besides
/// std::bad_alloc).
PLINTH_EXPORT std::variant<std::vector<std::byte>, std::string> decode_cache_entry(
    const CacheKey& key, std::span<const std::byte> bytes);

}  // namespace plinth::detail
