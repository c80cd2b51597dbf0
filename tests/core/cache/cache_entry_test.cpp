// Cache entry files (core/cache/cache_entry.hpp): what is written reads back; a corrupt,
// truncated, foreign or misplaced entry is refused with a reason; the reader's decision before
// the payload (header bytes, file size, the cache's limit) refuses files it must not read.

#include "cache/cache_entry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

namespace plinth::detail {
namespace cache_entry_test {
namespace {

std::vector<std::byte> bytes_of(const std::string& text) {
  const auto span = std::as_bytes(std::span(text.data(), text.size()));
  return {span.begin(), span.end()};
}

std::string problem(const CacheKey& key, const std::vector<std::byte>& file) {
  const auto decoded = decode_cache_entry(key, file);
  return std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded) : "";
}

const CacheKey key{0x0123456789abcdefULL, 0xfedcba9876543210ULL};

TEST(CacheEntry, RoundTrips) {
  const auto payload = bytes_of("a program binary");
  const auto file = encode_cache_entry(key, payload);
  EXPECT_EQ(file.size(), cache_entry_header_size + payload.size());
  const auto decoded = decode_cache_entry(key, file);
  ASSERT_TRUE(std::holds_alternative<std::vector<std::byte>>(decoded)) << problem(key, file);
  EXPECT_EQ(std::get<std::vector<std::byte>>(decoded), payload);
}

TEST(CacheEntry, EveryFlippedByteIsCaught) {
  const auto file = encode_cache_entry(key, bytes_of("a program binary"));
  for (std::size_t i = 0; i < file.size(); ++i) {
    auto corrupt = file;
    corrupt[i] ^= std::byte{0x01};
    EXPECT_NE(problem(key, corrupt), "") << "byte " << i;
  }
}

TEST(CacheEntry, TruncatedGarbageAndForeignEntriesAreRefused) {
  const auto file = encode_cache_entry(key, bytes_of("a program binary"));
  EXPECT_NE(problem(key, {file.begin(), file.begin() + 10}).find("truncated"), std::string::npos);
  EXPECT_NE(problem(key, {file.begin(), file.end() - 1}).find("truncated"), std::string::npos);
  EXPECT_NE(problem(key, bytes_of(std::string(200, 'x'))).find("not a plinth cache entry"),
            std::string::npos);
  EXPECT_NE(problem({1, 2}, file).find("another key"), std::string::npos);
  EXPECT_EQ(problem(key, {}).find("truncated"), 0u);
}

std::span<const std::byte> header_of(const std::vector<std::byte>& file) {
  return std::span(file).first(std::min(file.size(), cache_entry_header_size));
}

TEST(CacheEntryHeader, AValidHeaderOfTheRightSizeMayBeRead) {
  const auto file = encode_cache_entry(key, bytes_of("a program binary"));
  EXPECT_EQ(cache_entry_header_problem(key, header_of(file), file.size(), 1 << 20), "");
  EXPECT_EQ(cache_entry_header_problem(key, header_of(file), file.size(), file.size()), "");
}

// The sizes that once made the reader read a huge file whole: judged before any payload read.
TEST(CacheEntryHeader, SizesTheHeaderDoesNotDeclareOrBeyondTheLimitAreRefused) {
  const auto file = encode_cache_entry(key, bytes_of("a program binary"));
  const std::uint64_t huge = std::uint64_t{15} << 27;  // a 1.9 GiB file
  EXPECT_NE(
      cache_entry_header_problem(key, header_of(file), huge, ~std::uint64_t{0}).find("too long"),
      std::string::npos);
  EXPECT_NE(
      cache_entry_header_problem(key, header_of(file), file.size() - 1, 1 << 20).find("truncated"),
      std::string::npos);
  EXPECT_NE(cache_entry_header_problem(key, header_of(file), file.size(), file.size() - 1)
                .find("the cache's limit"),
            std::string::npos);
  // A header that claims a huge payload: refused by the limit, whatever the file's size.
  auto claims_huge = file;
  const std::uint64_t claimed = huge - cache_entry_header_size;
  std::memcpy(claims_huge.data() + 32, &claimed, sizeof claimed);
  EXPECT_NE(cache_entry_header_problem(key, header_of(claims_huge), huge, 1 << 20), "");
  // Garbage of any size: not an entry.
  const auto garbage = bytes_of(std::string(cache_entry_header_size, 'g'));
  EXPECT_NE(cache_entry_header_problem(key, garbage, huge, ~std::uint64_t{0})
                .find("not a plinth cache entry"),
            std::string::npos);
  EXPECT_NE(cache_entry_header_problem(key, {}, 0, 1 << 20).find("truncated"), std::string::npos);
  EXPECT_NE(cache_entry_header_problem(key, header_of(file), 20, 1 << 20).find("truncated"),
            std::string::npos);
}

TEST(CacheKey, FieldsAreDelimitedAndHexIsFixedWidth) {
  const auto a = CacheKeyHasher().add("ab").add("c").key();
  const auto b = CacheKeyHasher().add("a").add("bc").key();
  EXPECT_NE(a, b);
  EXPECT_EQ(a, CacheKeyHasher().add("ab").add("c").key());
  EXPECT_NE(CacheKeyHasher().add(std::uint64_t{1}).key(),
            CacheKeyHasher().add(std::uint64_t{2}).key());
  EXPECT_EQ(a.hex().size(), 32u);
  EXPECT_EQ((CacheKey{1, 2}.hex()), "00000000000000010000000000000002");
}

}  // namespace
}  // namespace cache_entry_test
}  // namespace plinth::detail
