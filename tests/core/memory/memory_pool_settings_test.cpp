// PLINTH_MEMORY_POOL and PLINTH_MEMORY_POOL_LIMIT (core/memory/context_pools.hpp), from a fake
// environment.

#include "memory/context_pools.hpp"

#include "fake_environment.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace plinth::detail {
namespace memory_pool_settings_test {
namespace {

MemoryPoolSettings settings(const std::map<std::string, std::string>& env) {
  return memory_pool_settings_from(test::fake_environment(env));
}

TEST(MemoryPoolSettings, OnWithoutALimitByDefault) {
  const auto defaults = settings({});
  EXPECT_TRUE(defaults.enabled);
  EXPECT_FALSE(defaults.limit.has_value());
  EXPECT_TRUE(settings({{"PLINTH_MEMORY_POOL", ""}}).enabled);
  EXPECT_TRUE(settings({{"PLINTH_MEMORY_POOL", "on"}}).enabled);
}

TEST(MemoryPoolSettings, TheWordsForOffTurnItOff) {
  for (const char* word : {"off", "OFF", "0", "false", "None"}) {
    EXPECT_FALSE(settings({{"PLINTH_MEMORY_POOL", word}}).enabled) << word;
  }
  // Anything else is warned about and leaves the pool on.
  EXPECT_TRUE(settings({{"PLINTH_MEMORY_POOL", "maybe"}}).enabled);
}

TEST(MemoryPoolSettings, TheLimitTakesBytesWithBinarySuffixes) {
  EXPECT_EQ(settings({{"PLINTH_MEMORY_POOL_LIMIT", "1000"}}).limit, std::size_t{1000});
  EXPECT_EQ(settings({{"PLINTH_MEMORY_POOL_LIMIT", "512M"}}).limit, std::size_t{512} << 20);
  EXPECT_EQ(settings({{"PLINTH_MEMORY_POOL_LIMIT", "2g"}}).limit, std::size_t{2} << 30);
  // Not a byte count: warned about, no limit.
  for (const char* bad : {"-1", "1.5G", "12 M", "lots", "99999999999999999999"}) {
    EXPECT_FALSE(settings({{"PLINTH_MEMORY_POOL_LIMIT", bad}}).limit.has_value()) << bad;
  }
}

}  // namespace
}  // namespace memory_pool_settings_test
}  // namespace plinth::detail
