// LruCache (core/algorithms/kit/lru_cache.hpp): the one eviction policy of the recipe cache and
// the kernel stores.

#include "algorithms/kit/lru_cache.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {
namespace lru_cache_test {
namespace {

// Strings looked up as string_views: a lookup builds no std::string.
struct Hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view key) const noexcept {
    return std::hash<std::string_view>()(key);
  }
};
struct Equal {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};
using Cache = LruCache<std::string, int, Hash, Equal>;

std::vector<std::string> keys_of(const Cache& cache) {
  std::vector<std::string> keys;
  cache.for_each([&](const std::string& key, int) { keys.push_back(key); });
  return keys;
}

TEST(LruCache, DropsTheLeastRecentlyUsedIntoTheCallersList) {
  Cache cache(2);
  Cache::List dropped;
  cache.insert("a", 1, dropped);
  cache.insert("b", 2, dropped);
  EXPECT_TRUE(dropped.empty());
  ASSERT_NE(cache.find(std::string_view("a")), nullptr);  // a is now the most recent
  EXPECT_EQ(keys_of(cache), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(cache.insert("c", 3, dropped), 3);
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped.front().first, "b");
  EXPECT_EQ(dropped.front().second, 2);
  EXPECT_EQ(cache.find(std::string_view("b")), nullptr);
  EXPECT_EQ(*cache.find(std::string_view("a")), 1);
  EXPECT_EQ(*cache.find(std::string_view("c")), 3);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(LruCache, ClearHandsEveryEntryBack) {
  Cache cache(4);
  Cache::List dropped;
  cache.insert("a", 1, dropped);
  cache.insert("b", 2, dropped);
  cache.clear(dropped);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(dropped.size(), 2u);
  EXPECT_EQ(cache.find(std::string_view("a")), nullptr);
  cache.insert("a", 5, dropped);  // usable again
  EXPECT_EQ(*cache.find(std::string_view("a")), 5);
}

// What the caches rely on: a dropped value is released only when the caller's list goes (the
// owners release it outside their locks).
TEST(LruCache, ADroppedValueLivesAsLongAsTheList) {
  LruCache<std::string, std::shared_ptr<int>, Hash, Equal> cache(1);
  decltype(cache)::List dropped;
  auto value = std::make_shared<int>(7);
  std::weak_ptr<int> watch = value;
  cache.insert("a", std::move(value), dropped);
  cache.insert("b", std::make_shared<int>(8), dropped);
  EXPECT_FALSE(watch.expired());
  dropped.clear();
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace lru_cache_test
}  // namespace plinth::detail
