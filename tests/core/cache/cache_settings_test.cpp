// PLINTH_CACHE_DIR and PLINTH_CACHE_SIZE (core/cache/cache_settings.hpp), from a fake
// environment.

#include "cache/cache_settings.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace plinth::detail {
namespace {

CacheSettings settings(const std::map<std::string, std::string>& env) {
  return cache_settings_from([&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(CacheSettings, DefaultsFollowXdgThenHome) {
  EXPECT_EQ(settings({{"XDG_CACHE_HOME", "/x/cache"}, {"HOME", "/home/u"}}).directory,
            "/x/cache/plinth");
  EXPECT_EQ(settings({{"HOME", "/home/u"}}).directory, "/home/u/.cache/plinth");
  EXPECT_EQ(settings({{"HOME", "/home/u"}}).size_limit, default_cache_size_limit);
}

TEST(CacheSettings, RelativeXdgCacheHomeAndHomeAreIgnored) {
  EXPECT_EQ(settings({{"XDG_CACHE_HOME", "rel"}, {"HOME", "/home/u"}}).directory,
            "/home/u/.cache/plinth");
  const auto none = settings({{"XDG_CACHE_HOME", "rel"}, {"HOME", "also-relative"}});
  EXPECT_FALSE(none.enabled);
  EXPECT_FALSE(none.off);
  EXPECT_TRUE(none.directory.empty());
  EXPECT_FALSE(none.reason.empty());
}

TEST(CacheSettings, CacheDirWinsAndOffDisables) {
  EXPECT_EQ(settings({{"PLINTH_CACHE_DIR", "/c"}, {"HOME", "/home/u"}}).directory, "/c");
  const auto off = settings({{"PLINTH_CACHE_DIR", "off"}, {"HOME", "/home/u"}});
  EXPECT_FALSE(off.enabled);
  EXPECT_TRUE(off.off);
  EXPECT_TRUE(settings({{"PLINTH_CACHE_DIR", "rel/dir"}}).directory.is_absolute());
}

TEST(CacheSettings, SizeIsBytesWithOptionalSuffix) {
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "12345"}}).size_limit, 12345u);
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "2M"}}).size_limit, 2u << 20);
  const auto bad = settings({{"PLINTH_CACHE_SIZE", "lots"}});
  EXPECT_EQ(bad.size_limit, default_cache_size_limit);
  EXPECT_NE(bad.note.find("PLINTH_CACHE_SIZE"), std::string::npos);
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "99999999999999999999999"}}).size_limit,
            default_cache_size_limit);
}

}  // namespace
}  // namespace plinth::detail
