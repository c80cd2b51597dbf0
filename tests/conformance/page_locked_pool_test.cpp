// The page-locked host pool behind HostArray::page_locked() (page_locked_pool.hpp): a released
// array's block is reused (same memory, a hit, no new allocation), zero-filled again and good
// for transfers; a block an asynchronous transfer still uses is not reused before its queue is
// idle; free_all_blocks(), the limit, PLINTH_MEMORY_POOL=off, arrays and pool handles that
// outlive their context, and threads. A backend without page-locked memory is skipped.

#include "fixture.hpp"
#include "page_locked_support.hpp"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace plinth::conformance {
namespace page_locked_pool_test {
namespace {

using PageLockedPoolTest = DeviceTest;

#define PLINTH_SKIP_WITHOUT_POOL(context)                                      \
  if (const auto reason = lacks_page_locked(context)) {                        \
    GTEST_SKIP() << "the backend has no page-locked host memory: " << *reason; \
  }                                                                            \
  if (!PageLockedMemoryPool::of(context).enabled()) {                          \
    GTEST_SKIP() << "PLINTH_MEMORY_POOL turned the pool off for this run";     \
  }

HostArray page_locked_pattern(const Context& context, std::size_t size, unsigned seed) {
  auto host = HostArray::page_locked(context, {size}, DType::uint8());
  const auto bytes = pattern(size, seed);
  std::memcpy(host.data(), bytes.data(), size);
  return host;
}

bool holds_pattern(const HostArray& host, unsigned seed) {
  const auto expected = pattern(host.nbytes(), seed);
  return std::memcmp(host.data(), expected.data(), host.nbytes()) == 0;
}

bool all_zero(const HostArray& host) {
  const std::byte* bytes = host.data();
  for (std::size_t i = 0; i < host.nbytes(); ++i) {
    if (bytes[i] != std::byte{0}) return false;
  }
  return true;
}

/// Sets PLINTH_MEMORY_POOL for the contexts made while it lives; restores it after.
class ScopedPoolSetting {
 public:
  explicit ScopedPoolSetting(const char* value) {
    if (const char* old = std::getenv("PLINTH_MEMORY_POOL")) saved_ = old;
    ::setenv("PLINTH_MEMORY_POOL", value, 1);
  }
  ScopedPoolSetting(const ScopedPoolSetting&) = delete;
  ScopedPoolSetting& operator=(const ScopedPoolSetting&) = delete;
  ~ScopedPoolSetting() {
    if (saved_) {
      ::setenv("PLINTH_MEMORY_POOL", saved_->c_str(), 1);
    } else {
      ::unsetenv("PLINTH_MEMORY_POOL");
    }
  }

 private:
  std::optional<std::string> saved_;
};

TEST_P(PageLockedPoolTest, AReleasedArraysBlockIsReused) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  pool.free_all_blocks();
  const auto before = pool.stats();
  EXPECT_EQ(before.bytes_in_use, 0u);
  EXPECT_EQ(before.bytes_held, 0u);
  const std::size_t size = (std::size_t{1} << 20) + 100;  // a 1.25 MiB block
  const std::size_t block = std::size_t{5} << 18;
  const void* first = nullptr;
  {
    const auto host = page_locked_pattern(context(), size, 1);
    first = host.data();
    const auto stats = pool.stats();
    EXPECT_EQ(stats.misses, before.misses + 1);
    EXPECT_EQ(stats.bytes_in_use, block);
    EXPECT_EQ(stats.bytes_held, block);
  }
  auto stats = pool.stats();
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.bytes_held, block);
  EXPECT_EQ(stats.peak_bytes_in_use, block);

  // A similar size (at least half the block) gets the same memory, zero-filled again.
  const auto again = HostArray::page_locked(context(), {block / 2 + 1000}, DType::uint8());
  EXPECT_EQ(again.data(), first);
  EXPECT_TRUE(again.is_page_locked());
  EXPECT_TRUE(all_zero(again));
  stats = pool.stats();
  EXPECT_EQ(stats.hits, before.hits + 1);
  EXPECT_EQ(stats.misses, before.misses + 1);
  EXPECT_EQ(stats.bytes_in_use, block);
  EXPECT_EQ(stats.bytes_held, block);

  // A much smaller one does not take it.
  const auto small = HostArray::page_locked(context(), {1000}, DType::uint8());
  EXPECT_NE(small.data(), first);
  stats = pool.stats();
  EXPECT_EQ(stats.misses, before.misses + 2);
  EXPECT_EQ(stats.bytes_held, block + 1024);
  EXPECT_EQ(stats.splits, 0u);
  EXPECT_EQ(stats.queue_waits, 0u);
}

TEST_P(PageLockedPoolTest, TransfersThroughReusedBlocksCarryTheRightData) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  const auto misses = pool.stats().misses;
  const std::size_t size = (std::size_t{3} << 20) + 5;
  const auto array = Array::empty(device(), {size}, DType::uint8());
  for (unsigned round = 0; round < 4; ++round) {
    SCOPED_TRACE(round);
    const auto hits = pool.stats().hits;
    {
      // Asynchronous both ways, through blocks the previous round released.
      array.set(queue(), page_locked_pattern(context(), size, 10 + round));
      const auto back = HostArray::page_locked(context(), {size}, DType::uint8());
      EXPECT_TRUE(all_zero(back));
      array.get(queue(), back, true);
      queue().synchronize();
      EXPECT_TRUE(holds_pattern(back, 10 + round));
    }
    if (round > 0) {
      EXPECT_EQ(pool.stats().hits, hits + 2);
    }
  }
  EXPECT_EQ(pool.stats().misses, misses + 2);
  EXPECT_EQ(pool.stats().bytes_in_use, 0u);
}

// An asynchronous transfer keeps its HostArray until the queue is idle: the block is not
// cached, so not reused, while the copy may still read it (the header's "no ordering needed").
TEST_P(PageLockedPoolTest, ABlockATransferStillUsesIsNotReused) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  const auto hits = pool.stats().hits;
  const std::size_t size = std::size_t{16} << 20;
  const auto array = Array::empty(device(), {size}, DType::uint8());
  const void* source = nullptr;
  {
    const auto host = page_locked_pattern(context(), size, 20);
    source = host.data();
    array.set(queue(), host);  // asynchronous: the queue keeps `host`
  }
  const auto in_use = pool.stats().bytes_in_use;
  EXPECT_GE(in_use, size);  // still the queue's
  {
    auto other = HostArray::page_locked(context(), {size}, DType::uint8());
    EXPECT_NE(other.data(), source);
    std::memset(other.data(), 0xff, size);  // would spoil the copy if it were the same block
  }
  queue().synchronize();  // releases what the queue kept
  EXPECT_EQ(pool.stats().bytes_in_use, 0u);
  const auto back = HostArray::page_locked(context(), {size}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(holds_pattern(back, 20));
  EXPECT_EQ(pool.stats().hits, hits + 1);  // `back` reused one of the two
}

TEST_P(PageLockedPoolTest, FreeAllBlocksGivesBackWhatIsNotInUse) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  pool.free_all_blocks();
  const auto freed = pool.stats().segments_freed;
  std::optional<HostArray> kept = HostArray::page_locked(context(), {4096}, DType::uint8());
  {
    const auto a = HostArray::page_locked(context(), {100000}, DType::uint8());
    const auto b = HostArray::page_locked(context(), {std::size_t{5} << 20}, DType::uint8());
  }
  auto stats = pool.stats();
  EXPECT_EQ(stats.bytes_in_use, 4096u);
  EXPECT_EQ(stats.bytes_held, 4096u + 100352u + (std::size_t{5} << 20));
  pool.free_all_blocks();
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 4096u);
  EXPECT_EQ(stats.segments_freed, freed + 2);
  EXPECT_EQ(stats.peak_bytes_held, 4096u + 100352u + (std::size_t{5} << 20));
  // The array in use is unharmed and goes back to the pool on release.
  const auto array = Array::from_host(queue(), *kept);
  EXPECT_TRUE(kept->is_page_locked());
  queue().synchronize();
  kept.reset();
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.bytes_held, 4096u);
  pool.free_all_blocks();
  EXPECT_EQ(pool.stats().bytes_held, 0u);
  // And it is used again afterwards.
  const auto after = page_locked_pattern(context(), 4096, 21);
  array.set(queue(), after, true);
  const auto back = HostArray::empty({4096}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(holds_pattern(back, 21));
}

TEST_P(PageLockedPoolTest, TheLimitRefusesWhatWouldPassIt) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  pool.free_all_blocks();
  EXPECT_EQ(pool.limit(), std::nullopt);
  pool.set_limit(std::size_t{2} << 20);
  EXPECT_EQ(PageLockedMemoryPool::of(context()).limit(), std::size_t{2} << 20);  // one pool
  const auto first = HostArray::page_locked(context(), {std::size_t{3} << 19}, DType::uint8());
  try {
    HostArray::page_locked(context(), {std::size_t{1} << 20}, DType::uint8());
    FAIL() << "passed the limit";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("page-locked pool"), std::string::npos) << e.what();
  }
  EXPECT_EQ(pool.stats().bytes_held, std::size_t{3} << 19);
  pool.set_limit(std::nullopt);
  const auto second = HostArray::page_locked(context(), {std::size_t{1} << 20}, DType::uint8());
  EXPECT_EQ(pool.stats().bytes_held, std::size_t{5} << 19);
}

// PLINTH_MEMORY_POOL=off (and its other spellings) read when the context is made: fresh
// allocations each time, nothing cached, statistics zero; any other value leaves it on.
TEST_P(PageLockedPoolTest, PlinthMemoryPoolOffTurnsItOff) {
  if (const auto reason = lacks_page_locked(context())) {
    GTEST_SKIP() << "the backend has no page-locked host memory: " << *reason;
  }
  for (const char* word : {"off", "OFF", "0", "false", "None"}) {
    SCOPED_TRACE(word);
    std::optional<Context> off;
    {
      const ScopedPoolSetting setting(word);
      off = Context::from_devices({GetParam()});
    }
    const auto pool = PageLockedMemoryPool::of(*off);
    EXPECT_FALSE(pool.enabled());
    const Queue off_queue(off->devices()[0]);
    const std::size_t size = 70000;
    const auto array = Array::empty(off_queue.device(), {size}, DType::uint8());
    for (unsigned round = 0; round < 2; ++round) {
      const auto host = page_locked_pattern(*off, size, 30 + round);
      EXPECT_TRUE(host.is_page_locked());
      array.set(off_queue, host);
      const auto back = HostArray::page_locked(*off, {size}, DType::uint8());
      array.get(off_queue, back);
      EXPECT_TRUE(holds_pattern(back, 30 + round));
    }
    const auto stats = pool.stats();
    EXPECT_EQ(stats.hits, 0u);
    EXPECT_EQ(stats.misses, 0u);
    EXPECT_EQ(stats.bytes_held, 0u);
    EXPECT_EQ(stats.peak_bytes_held, 0u);
  }
  for (const char* word : {"on", "1", "", "offf"}) {
    SCOPED_TRACE(word);
    std::optional<Context> on;
    {
      const ScopedPoolSetting setting(word);
      on = Context::from_devices({GetParam()});
    }
    const auto pool = PageLockedMemoryPool::of(*on);
    EXPECT_TRUE(pool.enabled());
    HostArray::page_locked(*on, {10}, DType::uint8());
    HostArray::page_locked(*on, {10}, DType::uint8());
    EXPECT_EQ(pool.stats().hits, 1u);
  }
}

// Arrays and pool handles outlive the context's handles: the blocks stay valid, a released
// one returns to the pool, and the pool gives back its cache when the last holder goes (the
// sanitizer build checks that nothing leaks).
TEST_P(PageLockedPoolTest, ArraysAndPoolsOutliveTheirContextsHandles) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const std::size_t size = (std::size_t{1} << 20) + 17;
  std::optional<HostArray> host;
  std::optional<HostArray> second;
  std::optional<PageLockedMemoryPool> pool;
  {
    const auto local = Context::from_devices({GetParam()});
    pool = PageLockedMemoryPool::of(local);
    host = page_locked_pattern(local, size, 40);
    second = page_locked_pattern(local, size, 41);
  }
  EXPECT_TRUE(holds_pattern(*host, 40));
  const auto array = Array::from_host(queue(), *host);  // another context of the device
  const auto back = HostArray::empty({size}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(holds_pattern(back, 40));
  host.reset();  // back to the pool of a context no one else holds
  auto stats = pool->stats();
  EXPECT_EQ(stats.bytes_held, 2 * (std::size_t{5} << 18));
  EXPECT_EQ(stats.bytes_in_use, std::size_t{5} << 18);
  second.reset();  // the context goes; the pool, held here, keeps its cache
  stats = pool->stats();
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.bytes_held, 2 * (std::size_t{5} << 18));
  pool->free_all_blocks();  // the adapter is still there to free them
  EXPECT_EQ(pool->stats().bytes_held, 0u);
  EXPECT_EQ(pool->stats().segments_freed, 2u);
  // And a pool handle that is the last holder of cached blocks frees them when it goes.
  {
    const auto local = Context::from_devices({GetParam()});
    pool = PageLockedMemoryPool::of(local);
    page_locked_pattern(local, size, 42);
  }
  EXPECT_EQ(pool->stats().bytes_held, std::size_t{5} << 18);
  pool.reset();
}

TEST_P(PageLockedPoolTest, ThreadsAllocateAndReleaseConcurrently) {
  PLINTH_SKIP_WITHOUT_POOL(context());
  const auto pool = PageLockedMemoryPool::of(context());
  const auto base = pool.stats();
  constexpr unsigned threads = 2;
  constexpr unsigned rounds = 200;
  std::vector<std::thread> workers;
  std::vector<unsigned> failures(threads, 0);
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::vector<HostArray> held;
      for (unsigned i = 0; i < rounds; ++i) {
        const std::size_t size = 1000 + (i * 7919 + t * 3571) % 300000;
        auto host = HostArray::page_locked(context(), {size}, DType::uint8());
        if (!all_zero(host)) ++failures[t];
        std::memset(host.data(), static_cast<int>(t + 1), size);
        held.push_back(std::move(host));
        if (held.size() > 2) {
          const auto& oldest = held.front();
          const std::byte* bytes = oldest.data();
          for (std::size_t b = 0; b < oldest.nbytes(); ++b) {
            if (bytes[b] != static_cast<std::byte>(t + 1)) {
              ++failures[t];  // another thread was given the same block
              break;
            }
          }
          held.erase(held.begin());
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(failures, std::vector<unsigned>(threads, 0));
  const auto stats = pool.stats();
  EXPECT_EQ(stats.hits + stats.misses, base.hits + base.misses + std::uint64_t{threads} * rounds);
  EXPECT_GT(stats.hits, 0u);
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_LE(stats.bytes_held, stats.peak_bytes_held);
  // A transfer through the pool still works after all that.
  const auto host = page_locked_pattern(context(), 300000, 50);
  const auto array = Array::from_host(queue(), host);
  const auto back = HostArray::page_locked(context(), {300000}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(holds_pattern(back, 50));
}

PLINTH_INSTANTIATE_DEVICE_TEST(PageLockedPoolTest);

}  // namespace
}  // namespace page_locked_pool_test
}  // namespace plinth::conformance
