// The page-locked host pool's state (core/arrays/page_locked_pool_state.hpp) over a fake
// driver: size classes and their waste bound, reuse, statistics, the limit, the retry after
// the driver runs out of memory, free_all_blocks(), and threads. The conformance suite's
// PageLockedPoolTest runs the pool behind HostArray::page_locked() on real devices.

#include "arrays/page_locked_pool_state.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace plinth::detail {
namespace page_locked_pool_test {
namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

TEST(PageLockedPoolSizes, SmallRequestsRoundTo512AndLargeOnesToQuarterSteps) {
  EXPECT_EQ(page_locked_block_size(0), 512u);
  EXPECT_EQ(page_locked_block_size(1), 512u);
  EXPECT_EQ(page_locked_block_size(512), 512u);
  EXPECT_EQ(page_locked_block_size(513), 1024u);
  EXPECT_EQ(page_locked_block_size(MiB - 1), MiB);
  EXPECT_EQ(page_locked_block_size(MiB), MiB);
  EXPECT_EQ(page_locked_block_size(MiB + 1), MiB + MiB / 4);
  EXPECT_EQ(page_locked_block_size(2 * MiB), 2 * MiB);
  EXPECT_EQ(page_locked_block_size(3 * MiB), 3 * MiB);
  EXPECT_EQ(page_locked_block_size(3 * MiB + 1), 3 * MiB + MiB / 2);
  EXPECT_EQ(page_locked_block_size(7 * MiB + 1), 8 * MiB);
  // No overflow at the top: the size itself.
  const std::size_t top = ~std::size_t{0};
  EXPECT_EQ(page_locked_block_size(top), top);
  EXPECT_EQ(page_locked_block_size(top - 5), top - 5);
}

// The stated bounds: a new block exceeds its request by less than 512 bytes (up to 1 MiB) or
// a quarter (above), it serves its own request, and a cached block serves only requests of at
// least half its size (counted as at least 512 bytes).
TEST(PageLockedPoolSizes, WasteStaysWithinTheStatedBounds) {
  std::vector<std::size_t> sizes;
  for (std::size_t size = 0; size < 3 * 4096; ++size) sizes.push_back(size);
  for (std::size_t size = MiB - 4096; size < MiB + 4096; ++size) sizes.push_back(size);
  for (std::size_t shift = 21; shift < 40; ++shift) {
    for (const std::ptrdiff_t delta : {-1, 0, 1, 12345}) {
      sizes.push_back((std::size_t{1} << shift) + static_cast<std::size_t>(delta));
    }
  }
  for (const auto size : sizes) {
    const auto block = page_locked_block_size(size);
    ASSERT_GE(block, size) << size;
    if (size <= MiB) {
      ASSERT_LT(block - size, 512u + (size == 0 ? 1u : 0u)) << size;
      ASSERT_EQ(block % 512, 0u) << size;
    } else {
      ASSERT_LT(block - size, size / 4) << size;
    }
    ASSERT_TRUE(page_locked_block_serves(block, size)) << size;
  }
  EXPECT_TRUE(page_locked_block_serves(4096, 2048));
  EXPECT_FALSE(page_locked_block_serves(4096, 2047));
  EXPECT_FALSE(page_locked_block_serves(4096, 4097));
  EXPECT_TRUE(page_locked_block_serves(1024, 1));  // counted as 512
  EXPECT_FALSE(page_locked_block_serves(1536, 1));
  EXPECT_TRUE(page_locked_block_serves(4097, 2049));  // odd sizes: half rounds up
  EXPECT_FALSE(page_locked_block_serves(4097, 2048));
  EXPECT_FALSE(page_locked_block_serves(8 * MiB, 4 * MiB - 1));
}

/// A driver over malloc that records what is live, runs out of memory past `capacity` bytes,
/// and says what it did.
class FakeDriver {
 public:
  explicit FakeDriver(std::size_t capacity = ~std::size_t{0}) : capacity_(capacity) {}
  ~FakeDriver() { EXPECT_TRUE(live_.empty()) << live_.size() << " blocks leaked"; }

  PageLockedPoolState::Driver driver() {
    return {[this](std::size_t size) -> void* {
              const std::lock_guard lock(mutex_);
              ++allocations_;
              if (size > capacity_ || live_bytes_ > capacity_ - size) {
                throw OutOfMemoryError("fake", "allocate", 1, "FAKE_OUT_OF_MEMORY");
              }
              void* memory = std::malloc(size);
              live_.insert(Live{memory, size});
              live_bytes_ += size;
              return memory;
            },
            [this](void* memory) {
              const std::lock_guard lock(mutex_);
              ++frees_;
              const auto found = live_.find({memory, 0});
              ASSERT_NE(found, live_.end()) << "freed what it never allocated";
              live_bytes_ -= found->size;
              live_.erase(found);
              std::free(memory);
            }};
  }
  std::size_t allocations() const {
    const std::lock_guard lock(mutex_);
    return allocations_;
  }
  std::size_t frees() const {
    const std::lock_guard lock(mutex_);
    return frees_;
  }
  std::size_t live_bytes() const {
    const std::lock_guard lock(mutex_);
    return live_bytes_;
  }

 private:
  struct Live {
    void* memory;
    std::size_t size;
    bool operator<(const Live& other) const { return memory < other.memory; }
  };
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::set<Live> live_;
  std::size_t live_bytes_ = 0;
  std::size_t allocations_ = 0;
  std::size_t frees_ = 0;
};

TEST(PageLockedPool, AReleasedBlockIsReusedForRequestsItServes) {
  FakeDriver fake;
  PageLockedPoolState pool(fake.driver(), true);
  const auto first = pool.acquire(3000);
  EXPECT_EQ(first.size, 3072u);
  auto stats = pool.stats();
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.hits, 0u);
  EXPECT_EQ(stats.bytes_in_use, 3072u);
  EXPECT_EQ(stats.bytes_held, 3072u);
  pool.release(first);
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.bytes_held, 3072u);

  const auto again = pool.acquire(1600);  // at least half of 3072: the same block
  EXPECT_EQ(again.memory, first.memory);
  EXPECT_EQ(again.size, 3072u);
  const auto other = pool.acquire(1000);  // nothing cached: a new block of 1024
  EXPECT_NE(other.memory, first.memory);
  EXPECT_EQ(other.size, 1024u);
  pool.release(again);
  const auto small = pool.acquire(1500);  // 3072 would serve it, but 1500 < 1536: new
  EXPECT_NE(small.memory, first.memory);
  stats = pool.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 3u);
  EXPECT_EQ(stats.bytes_in_use, 1024u + 1536u);
  EXPECT_EQ(stats.bytes_held, 3072u + 1024u + 1536u);
  EXPECT_EQ(stats.peak_bytes_in_use, 3072u + 1024u);
  EXPECT_EQ(stats.peak_bytes_held, stats.bytes_held);
  EXPECT_EQ(stats.splits, 0u);
  EXPECT_EQ(stats.queue_waits, 0u);
  EXPECT_EQ(fake.allocations(), 3u);
  pool.release(small);
  pool.release(other);
  EXPECT_EQ(fake.frees(), 0u);
}

TEST(PageLockedPool, TheSmallestServingBlockIsTaken) {
  FakeDriver fake;
  PageLockedPoolState pool(fake.driver(), true);
  const auto large = pool.acquire(8000);
  const auto medium = pool.acquire(6000);
  const auto exact = pool.acquire(5000);
  pool.release(large);
  pool.release(medium);
  pool.release(exact);
  EXPECT_EQ(pool.acquire(4500).memory, exact.memory);
  EXPECT_EQ(pool.acquire(4500).memory, medium.memory);
  EXPECT_EQ(pool.acquire(4500).memory, large.memory);
  EXPECT_EQ(pool.stats().hits, 3u);
  EXPECT_EQ(fake.allocations(), 3u);
  pool.release(large);
  pool.release(medium);
  pool.release(exact);
}

TEST(PageLockedPool, FreeAllBlocksGivesBackWhatIsCachedOnly) {
  FakeDriver fake;
  PageLockedPoolState pool(fake.driver(), true);
  const auto kept = pool.acquire(MiB);
  const auto a = pool.acquire(4096);
  const auto b = pool.acquire(3 * MiB);
  pool.release(a);
  pool.release(b);
  pool.free_all_blocks();
  auto stats = pool.stats();
  EXPECT_EQ(stats.segments_freed, 2u);
  EXPECT_EQ(stats.bytes_held, MiB);
  EXPECT_EQ(stats.bytes_in_use, MiB);
  EXPECT_EQ(stats.peak_bytes_held, MiB + 4096 + 3 * MiB);
  EXPECT_EQ(fake.frees(), 2u);
  EXPECT_EQ(fake.live_bytes(), MiB);
  pool.release(kept);
  pool.free_all_blocks();
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 0u);
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.segments_freed, 3u);
  EXPECT_EQ(fake.live_bytes(), 0u);
  // Usable afterwards: a miss again.
  pool.release(pool.acquire(4096));
  EXPECT_EQ(pool.stats().misses, 4u);
}

TEST(PageLockedPool, TheDestructorGivesBackTheCache) {
  FakeDriver fake;
  {
    PageLockedPoolState pool(fake.driver(), true);
    pool.release(pool.acquire(100));
    pool.release(pool.acquire(10 * MiB));
    EXPECT_EQ(fake.live_bytes(), 512u + 10 * MiB);
  }
  EXPECT_EQ(fake.live_bytes(), 0u);
  EXPECT_EQ(fake.frees(), 2u);
}

TEST(PageLockedPool, TheLimitGivesBackCachedBlocksThenRefuses) {
  FakeDriver fake;
  PageLockedPoolState pool(fake.driver(), true);
  EXPECT_EQ(pool.limit(), std::nullopt);
  pool.set_limit(16384);
  EXPECT_EQ(pool.limit(), 16384u);
  const auto a = pool.acquire(8192);
  const auto b = pool.acquire(4096);
  try {
    pool.acquire(8192);  // 20480 > 16384, nothing cached
    FAIL() << "passed the limit";
  } catch (const OutOfMemoryError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("limit of the context's page-locked pool, 16384 bytes"),
              std::string::npos)
        << message;
  }
  auto stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 8192u + 4096u);  // the refused reservation is undone
  EXPECT_EQ(stats.misses, 2u);
  pool.release(b);
  // 8192 + 8192 fits once the cached 4096 goes back.
  const auto c = pool.acquire(8192);
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 16384u);
  EXPECT_EQ(stats.segments_freed, 1u);
  // Lowering the limit gives back cached blocks at once, and releases beyond it free.
  pool.release(c);
  pool.set_limit(4096);
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 8192u);  // `a` is in use: over the limit until released
  pool.release(a);
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 0u);
  EXPECT_EQ(stats.segments_freed, 3u);
  EXPECT_EQ(fake.live_bytes(), 0u);
  // A request larger than the limit is refused outright.
  EXPECT_THROW(pool.acquire(8192), OutOfMemoryError);
  pool.set_limit(std::nullopt);
  pool.release(pool.acquire(8192));
  EXPECT_EQ(pool.stats().bytes_held, 8192u);
}

TEST(PageLockedPool, RunningOutOfMemoryGivesBackTheCacheAndRetriesOnce) {
  FakeDriver fake(8 * MiB);
  PageLockedPoolState pool(fake.driver(), true);
  pool.release(pool.acquire(5 * MiB));     // cached, 5 of the driver's 8 MiB
  const auto big = pool.acquire(6 * MiB);  // fails, gives back the 5, succeeds
  auto stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 6 * MiB);
  EXPECT_EQ(stats.segments_freed, 1u);
  EXPECT_EQ(stats.misses, 2u);
  EXPECT_EQ(fake.allocations(), 3u);
  // Nothing cached to give back: the driver's error, and the pool's books undone.
  EXPECT_THROW(pool.acquire(3 * MiB), OutOfMemoryError);
  stats = pool.stats();
  EXPECT_EQ(stats.bytes_held, 6 * MiB);
  EXPECT_EQ(stats.bytes_in_use, 6 * MiB);
  EXPECT_EQ(stats.misses, 2u);
  EXPECT_EQ(fake.allocations(), 4u);
  pool.release(big);
}

TEST(PageLockedPool, ThreadsAllocateAndReleaseConcurrently) {
  FakeDriver fake;
  PageLockedPoolState pool(fake.driver(), true);
  constexpr int threads = 4;
  constexpr int rounds = 2000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&pool, t] {
      std::vector<PageLockedPoolState::Block> held;
      for (int i = 0; i < rounds; ++i) {
        const std::size_t size = 100 + static_cast<std::size_t>((i * 7919 + t * 104729) % 20000);
        auto block = pool.acquire(size);
        block.memory[0] = std::byte{1};
        block.memory[size - 1] = std::byte{2};
        held.push_back(block);
        if (held.size() > 3) {
          pool.release(held.front());
          held.erase(held.begin());
        }
        if (i % 500 == 0) pool.free_all_blocks();
      }
      for (const auto& block : held) pool.release(block);
    });
  }
  for (auto& worker : workers) worker.join();
  const auto stats = pool.stats();
  EXPECT_EQ(stats.hits + stats.misses, std::uint64_t{threads} * rounds);
  EXPECT_GT(stats.hits, 0u);
  EXPECT_EQ(stats.bytes_in_use, 0u);
  EXPECT_EQ(stats.bytes_held, fake.live_bytes());
  EXPECT_EQ(fake.allocations(), stats.misses);
  EXPECT_EQ(fake.frees(), stats.segments_freed);
  EXPECT_LE(stats.peak_bytes_in_use, stats.peak_bytes_held);
}

}  // namespace
}  // namespace page_locked_pool_test
}  // namespace plinth::detail
