// The cache directory (core/cache/disk_cache.hpp), in a temporary directory: entries round-trip
// and leave no temporary file, a corrupt entry is a miss that write() replaces, a directory
// writable by others is never read, and eviction keeps the size under the limit, least
// recently used first.

#include "cache/disk_cache.hpp"
#include "cache/cache_entry.hpp"
#include "cache/memory_cache.hpp"
#include "temp_cache_dir.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace plinth::detail {
namespace {

namespace fs = std::filesystem;

class DiskCacheTest : public TempCacheDirTest {
 protected:
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }
};

std::vector<std::byte> payload(std::size_t size, int seed) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>((i * 7 + seed) & 0xff);
  return out;
}

TEST_F(DiskCacheTest, CreatesAPrivateDirectoryAndRoundTrips) {
  const DiskCache cache(dir_, 1 << 20);
  ASSERT_TRUE(cache.usable()) << cache.problem();
  EXPECT_EQ(fs::status(dir_).permissions() & fs::perms::all, fs::perms::owner_all);
  const CacheKey key{1, 2};
  EXPECT_FALSE(cache.read(key));
  ASSERT_TRUE(cache.write(key, payload(1000, 1)));
  EXPECT_EQ(cache.read(key), payload(1000, 1));
  EXPECT_EQ(files(), std::vector<std::string>{key.hex() + ".bin"}) << "no temporary file left";
  EXPECT_EQ(cache.usage().entries, 1u);
  EXPECT_EQ(cache.usage().bytes, 1000 + cache_entry_header_size);
  cache.remove(key);
  EXPECT_FALSE(cache.read(key));
}

TEST_F(DiskCacheTest, CorruptTruncatedOrGarbageEntriesAreMissesThatWriteReplaces) {
  const DiskCache cache(dir_, 1 << 20);
  const CacheKey key{3, 4};
  const auto path = cache.entry_path(key);
  for (int damage = 0; damage < 3; ++damage) {
    ASSERT_TRUE(cache.write(key, payload(500, damage)));
    if (damage == 0) {
      std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(300);
      file.put('\x7f');
    } else if (damage == 1) {
      fs::resize_file(path, 200);
    } else {
      std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(600, 'g');
    }
    bool rejected = false;
    EXPECT_FALSE(cache.read(key, &rejected)) << "damage " << damage;
    EXPECT_TRUE(rejected);
    ASSERT_TRUE(cache.write(key, payload(500, damage)));
    EXPECT_EQ(cache.read(key), payload(500, damage));
  }
}

TEST_F(DiskCacheTest, ADirectoryWritableByOthersIsNeverRead) {
  const CacheKey key{5, 6};
  {
    const DiskCache cache(dir_, 1 << 20);
    ASSERT_TRUE(cache.write(key, payload(100, 0)));
    fs::permissions(dir_, fs::perms::others_write, fs::perm_options::add);
    bool rejected = false;
    EXPECT_FALSE(cache.read(key, &rejected)) << "read after the directory became unsafe";
    EXPECT_FALSE(rejected);
  }
  const DiskCache cache(dir_, 1 << 20);
  EXPECT_FALSE(cache.usable());
  EXPECT_NE(cache.problem().find("writable"), std::string::npos) << cache.problem();
  EXPECT_FALSE(cache.read(key));
  EXPECT_FALSE(cache.write(key, payload(100, 0)));
}

TEST_F(DiskCacheTest, AnUncreatableDirectoryIsUnusable) {
  std::ofstream(root_ / "file") << "x";
  const DiskCache cache(root_ / "file" / "cache", 1 << 20);
  EXPECT_FALSE(cache.usable());
  EXPECT_FALSE(cache.problem().empty());
}

TEST_F(DiskCacheTest, EvictionKeepsTheSizeUnderTheLimitLeastRecentlyUsedFirst) {
  const std::size_t entry = 1000 + cache_entry_header_size;
  const DiskCache cache(dir_, 3 * entry);
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(cache.write({i, 0}, payload(1000, static_cast<int>(i))));
    // Distinct mtimes, oldest first, whatever the file system's time resolution.
    const struct timespec times[2] = {{static_cast<time_t>(1000 + i), 0},
                                      {static_cast<time_t>(1000 + i), 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, cache.entry_path({i, 0}).c_str(), times, 0), 0);
  }
  EXPECT_TRUE(cache.read({0, 0}));  // now the most recently used
  ASSERT_TRUE(cache.write({3, 0}, payload(1000, 3)));
  EXPECT_LE(cache.usage().bytes, 3 * entry);
  EXPECT_EQ(cache.usage().entries, 3u);
  EXPECT_TRUE(cache.read({0, 0}));
  EXPECT_FALSE(cache.read({1, 0})) << "the least recently used entry stays";
  EXPECT_TRUE(cache.read({3, 0}));
  // Files vanishing underneath (another process evicting) are tolerated.
  fs::remove(cache.entry_path({2, 0}));
  ASSERT_TRUE(cache.write({4, 0}, payload(1000, 4)));
  EXPECT_LE(cache.usage().bytes, 3 * entry);
}

TEST(MemoryCache, IsBoundedOldestFirst) {
  MemoryCache cache(2500);
  cache.insert({1, 0}, payload(1000, 1));
  cache.insert({2, 0}, payload(1000, 2));
  EXPECT_EQ(cache.find({1, 0}), payload(1000, 1));
  cache.insert({3, 0}, payload(1000, 3));
  EXPECT_FALSE(cache.find({1, 0}));
  EXPECT_TRUE(cache.find({2, 0}));
  EXPECT_TRUE(cache.find({3, 0}));
  cache.remove({3, 0});
  EXPECT_FALSE(cache.find({3, 0}));
}

}  // namespace
}  // namespace plinth::detail
