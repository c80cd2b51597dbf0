// PLINTH_CACHE_DIR and PLINTH_CACHE_SIZE (core/cache/cache_settings.hpp), from a fake
// environment.

#include "cache/cache_settings.hpp"

#include "fake_environment.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace plinth::detail {
namespace cache_settings_test {
namespace {

CacheSettings settings(const std::map<std::string, std::string>& env) {
  return cache_settings_from(test::fake_environment(env));
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
}

// "off" in any case, and the words people write for it, turn the cache off: none of them is a
// directory to create in the current directory.
TEST(CacheSettings, OffZeroFalseAndNoneInAnyCaseDisable) {
  for (const std::string word : {"off", "OFF", "Off", "0", "false", "FALSE", "none", "None"}) {
    const auto off = settings({{"PLINTH_CACHE_DIR", word}, {"HOME", "/home/u"}});
    EXPECT_TRUE(off.off) << word;
    EXPECT_FALSE(off.enabled) << word;
    EXPECT_TRUE(off.directory.empty()) << word;
    EXPECT_TRUE(off.warnings.empty()) << word;
  }
}

// A relative PLINTH_CACHE_DIR is refused with a warning (never the current directory), as a
// relative PLINTH_PLUGIN_PATH entry is; the default location is not silently used instead.
TEST(CacheSettings, RelativeCacheDirIsRefusedWithAWarning) {
  const auto relative = settings({{"PLINTH_CACHE_DIR", "rel/dir"}, {"HOME", "/home/u"}});
  EXPECT_FALSE(relative.enabled);
  EXPECT_FALSE(relative.off);
  EXPECT_TRUE(relative.directory.empty());
  ASSERT_EQ(relative.warnings.size(), 1u);
  EXPECT_NE(relative.warnings[0].find("PLINTH_CACHE_DIR='rel/dir' is not an absolute path"),
            std::string::npos)
      << relative.warnings[0];
  EXPECT_NE(relative.warnings[0].find("within this process only"), std::string::npos)
      << relative.warnings[0];
  EXPECT_TRUE(settings({{"PLINTH_CACHE_DIR", "/c"}}).explicit_directory);
  EXPECT_FALSE(settings({{"HOME", "/home/u"}}).explicit_directory);
}

TEST(CacheSettings, SizeIsBytesWithOptionalSuffix) {
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "12345"}}).size_limit, 12345u);
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "2M"}}).size_limit, 2u << 20);
  const auto bad = settings({{"PLINTH_CACHE_SIZE", "lots"}});
  EXPECT_EQ(bad.size_limit, default_cache_size_limit);
  ASSERT_EQ(bad.warnings.size(), 1u);
  EXPECT_NE(bad.warnings[0].find("PLINTH_CACHE_SIZE"), std::string::npos);
  EXPECT_EQ(settings({{"PLINTH_CACHE_SIZE", "99999999999999999999999"}}).size_limit,
            default_cache_size_limit);
}

// The warnings hold the value as given: warn() makes it printable once, on the way out (it was
// escaped twice: "\\x1b").
TEST(CacheSettings, WarningsQuoteTheValueUnescaped) {
  const auto bad = settings({{"PLINTH_CACHE_SIZE", "a\x1b[2Jb"}});
  ASSERT_EQ(bad.warnings.size(), 1u);
  EXPECT_NE(bad.warnings[0].find("'a\x1b[2Jb'"), std::string::npos) << bad.warnings[0];
}

}  // namespace
}  // namespace cache_settings_test
}  // namespace plinth::detail
