#include "cache/cache_entry.hpp"

#include <fmt/format.h>

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace plinth::detail {

namespace {

// Layout (native byte order: an entry of another byte order fails the magic or checksum):
//   0 magic "PLNTHCCH"   8 format version (u32)   12 header size (u32)
//   16 key (high, low: 2 x u64)   32 payload size (u64)   40 checksum (u64)   48 payload
// The checksum is XXH3-64 of bytes 0..39 and the payload.
constexpr char magic[8] = {'P', 'L', 'N', 'T', 'H', 'C', 'C', 'H'};
constexpr std::uint32_t format_version = 1;

template <class T>
void put(std::vector<std::byte>& out, std::size_t offset, T value) {
  std::memcpy(out.data() + offset, &value, sizeof value);
}

template <class T>
T get(std::span<const std::byte> in, std::size_t offset) {
  T value;
  std::memcpy(&value, in.data() + offset, sizeof value);
  return value;
}

std::uint64_t checksum(std::span<const std::byte> header, std::span<const std::byte> payload) {
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, header.data(), 40);
  XXH3_64bits_update(state, payload.data(), payload.size());
  const std::uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return sum;
}

}  // namespace

std::vector<std::byte> encode_cache_entry(const CacheKey& key, std::span<const std::byte> payload) {
  std::vector<std::byte> out(cache_entry_header_size + payload.size());
  std::memcpy(out.data(), magic, sizeof magic);
  put<std::uint32_t>(out, 8, format_version);
  put<std::uint32_t>(out, 12, static_cast<std::uint32_t>(cache_entry_header_size));
  put<std::uint64_t>(out, 16, key.high);
  put<std::uint64_t>(out, 24, key.low);
  put<std::uint64_t>(out, 32, payload.size());
  if (!payload.empty()) {
    std::memcpy(out.data() + cache_entry_header_size, payload.data(), payload.size());
  }
  put<std::uint64_t>(out, 40, checksum(out, payload));
  return out;
}

std::string cache_entry_header_problem(const CacheKey& key, std::span<const std::byte> header,
                                       std::uint64_t file_size, std::uint64_t size_limit) {
  if (file_size < cache_entry_header_size || header.size() < cache_entry_header_size) {
    return fmt::format("truncated ({} bytes, shorter than the header)",
                       std::min<std::uint64_t>(file_size, header.size()));
  }
  if (std::memcmp(header.data(), magic, sizeof magic) != 0) {
    return std::string("not a plinth cache entry (wrong magic)");
  }
  const auto version = get<std::uint32_t>(header, 8);
  if (version != format_version || get<std::uint32_t>(header, 12) != cache_entry_header_size) {
    return fmt::format("format version {} (this plinth writes {})", version, format_version);
  }
  if (get<std::uint64_t>(header, 16) != key.high || get<std::uint64_t>(header, 24) != key.low) {
    return std::string("holds another key");
  }
  if (file_size > size_limit) {
    return fmt::format("{} bytes, larger than the cache's limit ({} bytes)", file_size, size_limit);
  }
  const auto size = get<std::uint64_t>(header, 32);
  const std::uint64_t actual = file_size - cache_entry_header_size;
  if (size != actual) {
    return fmt::format("{} ({} payload bytes, the header says {})",
                       size > actual ? "truncated" : "too long", actual, size);
  }
  return {};
}

std::variant<std::vector<std::byte>, std::string> decode_cache_entry(
    const CacheKey& key, std::span<const std::byte> bytes) {
  auto problem =
      cache_entry_header_problem(key, bytes.first(std::min(bytes.size(), cache_entry_header_size)),
                                 bytes.size(), std::numeric_limits<std::uint64_t>::max());
  if (!problem.empty()) return problem;
  const auto payload = bytes.subspan(cache_entry_header_size);
  if (checksum(bytes, payload) != get<std::uint64_t>(bytes, 40)) {
    return std::string("checksum mismatch");
  }
  if (payload.empty()) return std::string("empty payload");
  return std::vector<std::byte>(payload.begin(), payload.end());
}

}  // namespace plinth::detail
