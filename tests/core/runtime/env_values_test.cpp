// The words and byte counts of plinth's environment variables (core/runtime/env_values.hpp),
// shared by PLINTH_CACHE_DIR/PLINTH_CACHE_SIZE and PLINTH_MEMORY_POOL/_LIMIT.

#include "runtime/env_values.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace plinth::detail {
namespace env_values_test {
namespace {

TEST(EnvValues, OffWordsInAnyCase) {
  for (const std::string word : {"off", "OFF", "Off", "0", "false", "FALSE", "none", "NoNe"}) {
    EXPECT_TRUE(means_off(word)) << word;
  }
  for (const std::string word : {"", "on", "1", "of", "offf", " off", "no", "/off", "nonE "}) {
    EXPECT_FALSE(means_off(word)) << word;
  }
}

TEST(EnvValues, ByteSizesWithBinarySuffixes) {
  std::uint64_t out = 7;
  EXPECT_TRUE(parse_byte_size("0", out));
  EXPECT_EQ(out, 0u);
  EXPECT_TRUE(parse_byte_size("12345", out));
  EXPECT_EQ(out, 12345u);
  EXPECT_TRUE(parse_byte_size("3k", out));
  EXPECT_EQ(out, 3u << 10);
  EXPECT_TRUE(parse_byte_size("2M", out));
  EXPECT_EQ(out, 2u << 20);
  EXPECT_TRUE(parse_byte_size("5G", out));
  EXPECT_EQ(out, std::uint64_t{5} << 30);
  EXPECT_TRUE(parse_byte_size("18446744073709551615", out));
  EXPECT_EQ(out, UINT64_MAX);
}

TEST(EnvValues, AnythingElseIsRefusedAndLeavesTheValue) {
  for (const std::string text :
       {"", "K", "-1", "+1", " 1", "1 ", "1.5M", "1T", "1KB", "lots", "18446744073709551616",
        "17179869184G", "99999999999999999999999"}) {
    std::uint64_t out = 42;
    EXPECT_FALSE(parse_byte_size(text, out)) << text;
    EXPECT_EQ(out, 42u) << text;
  }
}

}  // namespace
}  // namespace env_values_test
}  // namespace plinth::detail
