#include "cache/memory_cache.hpp"

#include <algorithm>

namespace plinth::detail {

std::optional<std::vector<std::byte>> MemoryCache::find(const CacheKey& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const auto& entry) { return entry.first == key; });
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void MemoryCache::insert(const CacheKey& key, std::span<const std::byte> binary) {
  if (binary.size() > byte_limit_) return;
  std::vector<std::byte> copy(binary.begin(), binary.end());
  const std::lock_guard lock(mutex_);
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const auto& entry) { return entry.first == key; });
  if (it != entries_.end()) {
    bytes_ -= it->second.size();
    entries_.erase(it);
  }
  bytes_ += copy.size();
  entries_.emplace_back(key, std::move(copy));
  while (bytes_ > byte_limit_) {
    bytes_ -= entries_.front().second.size();
    entries_.pop_front();
  }
}

void MemoryCache::remove(const CacheKey& key) {
  const std::lock_guard lock(mutex_);
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const auto& entry) { return entry.first == key; });
  if (it != entries_.end()) {
    bytes_ -= it->second.size();
    entries_.erase(it);
  }
}

}  // namespace plinth::detail
