#include "cache/cache_key.hpp"

#include <fmt/format.h>

#include <xxhash.h>

#include <new>

namespace plinth::detail {

std::string CacheKey::hex() const { return fmt::format("{:016x}{:016x}", high, low); }

CacheKeyHasher::CacheKeyHasher() : state_(XXH3_createState()) {
  if (state_ == nullptr) throw std::bad_alloc();
  XXH3_128bits_reset(state_);
}

CacheKeyHasher::~CacheKeyHasher() { XXH3_freeState(state_); }

CacheKeyHasher& CacheKeyHasher::add(std::string_view field) {
  const std::uint64_t size = field.size();
  XXH3_128bits_update(state_, &size, sizeof size);
  XXH3_128bits_update(state_, field.data(), field.size());
  return *this;
}

CacheKeyHasher& CacheKeyHasher::add(std::uint64_t value) {
  return add(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

CacheKey CacheKeyHasher::key() const {
  const XXH128_hash_t hash = XXH3_128bits_digest(state_);
  return {hash.high64, hash.low64};
}

}  // namespace plinth::detail
