// The cache directory (core/cache/disk_cache.hpp), in a temporary directory: entries round-trip
// and leave no temporary file, a corrupt entry is a miss that write() replaces, a directory
// writable by others is never read, and eviction keeps the size under the limit, least
// recently used first. Whatever sits at an entry's path (a FIFO, a symlink, a directory, a huge
// file) is refused without blocking or reading it whole, and removed or replaced.

#include "cache/disk_cache.hpp"
#include "cache/cache_entry.hpp"
#include "cache/memory_cache.hpp"
#include "temp_cache_dir.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace plinth::detail {
namespace disk_cache_test {
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

/// The exit status of `body` run in a child process; nullopt when it ran past `limit` (it is
/// killed then), so that a read that would block forever fails the test instead of hanging it.
std::optional<int> in_child(const std::function<int()>& body, std::chrono::seconds limit) {
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) ::_exit(body());
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// What a read in a child process did: 0 a miss, 1 rejected, 2 a hit.
int read_outcome(const DiskCache& cache, const CacheKey& key) {
  bool rejected = false;
  const auto found = cache.read(key, &rejected);
  return found ? 2 : rejected ? 1 : 0;
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

// Anything but a regular file at an entry's path is a corrupt entry: a FIFO is never opened for
// a blocking read (that blocked every build forever), a symlink is never followed, and both,
// like a directory, are removed so that the rebuilt entry can take their place.
TEST_F(DiskCacheTest, AFifoSymlinkOrDirectoryAtAnEntrysPathIsRemovedAndRebuilt) {
  const DiskCache cache(dir_, 1 << 20);
  ASSERT_TRUE(cache.usable()) << cache.problem();
  // A valid entry elsewhere that the symlink points at: never read through it, never removed.
  const DiskCache other(root_ / "other", 1 << 20);
  const CacheKey key{7, 8};
  ASSERT_TRUE(other.write(key, payload(100, 7)));
  const auto path = cache.entry_path(key);
  for (const std::string kind : {"fifo", "symlink", "directory"}) {
    if (kind == "fifo") {
      ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    } else if (kind == "symlink") {
      fs::create_symlink(other.entry_path(key), path);
    } else {
      fs::create_directory(path);
    }
    const auto outcome =
        in_child([&] { return read_outcome(cache, key); }, std::chrono::seconds(10));
    ASSERT_TRUE(outcome.has_value()) << kind << ": the read blocked";
    EXPECT_EQ(*outcome, 1) << kind << ": not rejected";
    EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << kind << ": not removed";
    EXPECT_EQ(other.read(key), payload(100, 7)) << kind << ": the symlink's target changed";
    ASSERT_TRUE(cache.write(key, payload(100, 8))) << kind;
    EXPECT_EQ(cache.read(key), payload(100, 8)) << kind;
    cache.remove(key);
  }
}

// A huge file under an entry's name is judged by its header and size and never read whole: the
// 1.9 GiB sparse file (under the old 2 GiB cap) once cost 2 GB of memory and seconds.
TEST_F(DiskCacheTest, AHugeFileAtAnEntrysPathIsRefusedWithoutReadingIt) {
  const DiskCache cache(dir_, 1 << 20);
  const CacheKey key{9, 10};
  const auto path = cache.entry_path(key);
  // A valid header (that of a 100-byte payload) at the start of a 1.9 GiB sparse file.
  const auto entry = encode_cache_entry(key, payload(100, 9));
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, entry.data(), entry.size()), static_cast<ssize_t>(entry.size()));
    ASSERT_EQ(::ftruncate(fd, off_t{15} << 27), 0);  // 15 * 128 MiB: 1.875 GiB
    ::close(fd);
  }
  const auto outcome = in_child(
      [&] {
        struct rusage before {
        }, after{};
        ::getrusage(RUSAGE_SELF, &before);
        const int result = read_outcome(cache, key);
        ::getrusage(RUSAGE_SELF, &after);
        // Exit status 3: the read took more than 64 MiB of memory.
        return after.ru_maxrss - before.ru_maxrss > 64 * 1024 ? 3 : result;
      },
      std::chrono::seconds(60));
  ASSERT_TRUE(outcome.has_value());
  EXPECT_NE(*outcome, 3) << "the file was read whole";
  EXPECT_EQ(*outcome, 1) << "not rejected";
  ASSERT_TRUE(cache.write(key, payload(100, 9)));
  EXPECT_EQ(cache.read(key), payload(100, 9));
}

// An entry larger than the cache's own limit is refused, however valid.
TEST_F(DiskCacheTest, AnEntryLargerThanTheLimitIsRefused) {
  const CacheKey key{11, 12};
  ASSERT_TRUE(DiskCache(dir_, 1 << 20).write(key, payload(10000, 11)));
  const DiskCache small(dir_, 4096);
  bool rejected = false;
  EXPECT_FALSE(small.read(key, &rejected));
  EXPECT_TRUE(rejected);
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
}  // namespace disk_cache_test
}  // namespace plinth::detail
