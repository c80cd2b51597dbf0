#pragma once

// The words and numbers plinth's environment variables take, read the same way everywhere:
// "off" in its several spellings (PLINTH_CACHE_DIR, PLINTH_MEMORY_POOL) and byte counts with
// an optional binary suffix (PLINTH_CACHE_SIZE, PLINTH_MEMORY_POOL_LIMIT).

#include <plinth/export.hpp>

#include <cstdint>
#include <string_view>

namespace plinth::detail {

/// Whether `value` is one of the words for "off": off, 0, false or none, in any case. Throws
/// nothing.
PLINTH_EXPORT bool means_off(std::string_view value) noexcept;

/// A decimal byte count with an optional K, M or G suffix (binary: 2^10, 2^20, 2^30; either
/// case), into `out`. Returns false, leaving `out` alone, for anything else: empty text, a sign,
/// spaces, other suffixes, or a value beyond 2^64 - 1. Throws nothing.
PLINTH_EXPORT bool parse_byte_size(std::string_view text, std::uint64_t& out) noexcept;

}  // namespace plinth::detail
