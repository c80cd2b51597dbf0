#pragma once

// The compiled-program cache within one process, for when the directory cannot be used: the
// binaries of the programs built so far, bounded in bytes (the oldest are dropped first).

#include "cache/cache_key.hpp"

#include <plinth/export.hpp>

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace plinth::detail {

/// A bounded map from key to binary. Any thread; never throws but std::bad_alloc.
class PLINTH_EXPORT MemoryCache {
 public:
  explicit MemoryCache(std::size_t byte_limit) : byte_limit_(byte_limit) {}
  /// The binary stored under `key`, if any.
  std::optional<std::vector<std::byte>> find(const CacheKey& key) const;
  /// Stores `binary` under `key`, dropping the oldest entries beyond the limit.
  void insert(const CacheKey& key, std::span<const std::byte> binary);
  /// Drops `key`'s binary.
  void remove(const CacheKey& key);

 private:
  std::size_t byte_limit_;
  mutable std::mutex mutex_;
  std::list<std::pair<CacheKey, std::vector<std::byte>>> entries_;  // oldest first
  std::size_t bytes_ = 0;
};

}  // namespace plinth::detail
