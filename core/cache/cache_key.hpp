#pragma once

// The name of a compiled-program cache entry: a 128-bit XXH3 hash of everything that changes
// the binary, fed field by field (each length-prefixed, so that no two field lists collide).

#include <plinth/export.hpp>

#include <cstdint>
#include <string>
#include <string_view>

struct XXH3_state_s;

namespace plinth::detail {

/// A 128-bit cache key. Plain value; any thread.
struct CacheKey {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
  /// 32 lowercase hexadecimal digits: the entry's file name without its extension.
  PLINTH_EXPORT std::string hex() const;
};

/// Hashes fields into a CacheKey. One object per thread; add() then key(). Never throws
/// (besides std::bad_alloc from the constructor).
class PLINTH_EXPORT CacheKeyHasher {
 public:
  CacheKeyHasher();
  ~CacheKeyHasher();
  CacheKeyHasher(const CacheKeyHasher&) = delete;
  CacheKeyHasher& operator=(const CacheKeyHasher&) = delete;

  /// Adds one field: its length, then its bytes.
  CacheKeyHasher& add(std::string_view field);
  /// Adds a number as a field.
  CacheKeyHasher& add(std::uint64_t value);
  /// The key of everything added so far.
  CacheKey key() const;

 private:
  XXH3_state_s* state_;
};

}  // namespace plinth::detail
