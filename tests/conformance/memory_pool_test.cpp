// The caching device memory pool (memory_pool.hpp): reuse, statistics, the limit, and above
// all the ordering rule. The ordering tests make a queue's work on a block slow (a kernel that
// spins before it writes) and then reuse the block elsewhere: were the rule broken, the slow
// write would land after the new owner's and the data read at the end would be wrong.

#include "fixture.hpp"

#include <plinth/array_expression.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace plinth::conformance {
namespace memory_pool_test {
namespace {

const char* const source = R"(
KERNEL void slow_fill(GLOBAL_MEM int *out, int value, unsigned int spins)
{
    const int i = get_global_id(0);
    unsigned int x = (unsigned int)i;
    for (unsigned int k = 0; k < spins; ++k) x = x * 1103515245u + 12345u;
    out[i] = x == 0x7fffffffu ? -1 : value;
}

KERNEL void fill(GLOBAL_MEM int *out, int value)
{
    out[get_global_id(0)] = value;
}
)";

constexpr std::size_t n = 128;
constexpr std::size_t bytes = n * sizeof(int);
/// Long enough on PoCL (about a tenth of a second) for a queue that did not wait to write first.
constexpr unsigned spins = 200000;

class MemoryPoolTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    program_.emplace(context(), source);
  }
  MemoryPool pool() const { return MemoryPool::of(context()); }
  MemoryPoolStats stats() const { return pool().stats(device()); }
  void slow_fill(const Queue& queue, const Buffer& out, int value) const {
    program_->kernel("slow_fill")(queue, {n}, {}, out, value, spins);
  }
  void fill(const Queue& queue, const Buffer& out, int value) const {
    program_->kernel("fill")(queue, {out.size() / sizeof(int)}, {}, out, value);
  }
  /// The block's ints, read through `queue` (which waits for its own work on it).
  static std::vector<int> ints(const Queue& queue, const Buffer& buffer) {
    std::vector<int> out(buffer.size() / sizeof(int));
    buffer.get(queue, std::as_writable_bytes(std::span(out)));
    return out;
  }
  static void expect_all(const std::vector<int>& values, int value, const char* what) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(values[i], value) << what << ", element " << i;
    }
  }

 private:
  std::optional<Program> program_;
};

TEST_P(MemoryPoolTest, IsOnByDefaultAndServesArrays) {
  if (!pool().enabled()) GTEST_SKIP() << "PLINTH_MEMORY_POOL turns the pool off here";
  const auto before = stats();
  {
    const auto array = Array::empty(queue(), {n}, DType::int32());
    const auto during = stats();
    EXPECT_EQ(during.bytes_in_use, before.bytes_in_use + 512);  // rounded to 512 bytes
    EXPECT_GE(during.bytes_held, during.bytes_in_use);
    EXPECT_EQ(array.base_buffer().size(), bytes);
    EXPECT_EQ(array.base_buffer().offset(), 0u);
  }
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use);
  // The device overload and empty_like take from the pool too.
  const auto a = Array::empty(device(), {n}, DType::int32());
  const auto b = Array::empty_like(queue(), a);
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use + 1024);
}

TEST_P(MemoryPoolTest, AReleasedBlockIsReusedOnItsQueueAtOnce) {
  const Queue a(device());
  { slow_fill(a, pool().allocate(a, bytes), 1); }  // released while the kernel still runs
  const auto before = stats();
  const auto again = pool().allocate(a, bytes);
  const auto after = stats();
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.queue_waits, before.queue_waits) << "queue order protects it: no wait";
  fill(a, again, 2);
  expect_all(ints(a, again), 2, "after the fill in queue order");
}

TEST_P(MemoryPoolTest, ABlockAnotherQueueUsedIsReusedAfterThatQueuesWork) {
  const Queue a(device());
  const Queue b(device());
  {
    const auto block = pool().allocate(b, bytes);  // b's block ...
    slow_fill(a, block, 1);                        // ... used on a: noted by the launch
  }                                                // released: an event on a
  const auto before = stats();
  const auto again = pool().allocate(b, bytes);  // b waits for that event, on the device
  const auto after = stats();
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.queue_waits, before.queue_waits + 1);
  fill(b, again, 2);
  expect_all(ints(b, again), 2, "read in b");
  a.synchronize();
  // Had b not waited, a's slow write would have landed after b's fill.
  expect_all(ints(b, again), 2, "after a's work is done");
}

TEST_P(MemoryPoolTest, RecordQueueOrdersWorkPlinthDoesNotSee) {
  const Queue a(device());
  const Queue b(device());
  {
    const auto block = pool().allocate(b, bytes);
    block.record_queue(a);  // as for a native handle passed to a library on a
  }
  const auto before = stats();
  const auto again = pool().allocate(b, bytes);
  EXPECT_EQ(stats().queue_waits, before.queue_waits + 1);
  // An Array's record_queue() records its base buffer.
  {
    const auto array = Array::empty(b, {n}, DType::int32());
    array.record_queue(a);
  }
  const auto middle = stats();
  const auto third = pool().allocate(b, bytes);
  EXPECT_EQ(stats().queue_waits, middle.queue_waits + 1);
  // Another context's queue is refused.
  const Context other = Context::from_devices({device().device()});
  const Queue foreign(other.devices()[0]);
  EXPECT_NE(logic_error_message([&] { again.record_queue(foreign); }).find("record_queue"),
            std::string::npos);
}

TEST_P(MemoryPoolTest, DeviceAllocationsReuseOnlyMemoryNoQueueStillUses) {
  const Queue a(device());
  { slow_fill(a, pool().allocate(a, bytes), 1); }
  const auto before = stats();
  {
    const auto fresh = pool().allocate(device(), bytes);  // a's work may still run: not reused
    EXPECT_EQ(stats().misses, before.misses + 1);
    EXPECT_EQ(stats().hits, before.hits);
    fill(queue(), fresh, 2);
    a.synchronize();
    expect_all(ints(queue(), fresh), 2, "fresh memory, untouched by a");
  }
  a.synchronize();  // now a is known idle
  const auto middle = stats();
  const auto reused = pool().allocate(device(), bytes);
  EXPECT_EQ(stats().hits, middle.hits + 1);
  EXPECT_EQ(stats().misses, middle.misses);
}

TEST_P(MemoryPoolTest, ADestroyedQueuesWorkIsDoneBeforeItsBlocksAreReused) {
  {
    const Queue a(device());
    slow_fill(a, pool().allocate(a, bytes), 1);
  }  // the queue's end waits for its work, since pool blocks knew it
  const auto before = stats();
  const auto block = pool().allocate(device(), bytes);
  EXPECT_EQ(stats().hits, before.hits + 1);
  fill(queue(), block, 2);
  expect_all(ints(queue(), block), 2, "reused after the queue's end");
}

TEST_P(MemoryPoolTest, ViewsAndSubRegionsKeepTheirBlock) {
  const auto before = stats();
  // A region that can be a kernel argument everywhere: OpenCL needs its origin aligned.
  const std::size_t origin = std::max<std::size_t>(256, device().params().address_alignment);
  std::optional<Array> view;
  std::optional<Buffer> region;
  {
    const auto array = Array::empty(queue(), {1024}, DType::int32());  // 4096 bytes
    ASSERT_LE(origin + 64, array.nbytes());
    view = array.view({Slice(10, 20)});
    region = array.base_buffer().get_sub_region(origin, 64);
  }
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use + 4096) << "the view holds the block";
  view.reset();
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use + 4096) << "the region holds it";
  // The region's memory is the block's: a fill through the region reads back.
  fill(queue(), *region, 7);
  expect_all(ints(queue(), *region), 7, "through the region");
  region.reset();
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use);
}

TEST_P(MemoryPoolTest, StatisticsAndFreeAllBlocks) {
  pool().free_all_blocks();
  const auto empty = stats();
  EXPECT_EQ(empty.bytes_in_use, 0u);
  EXPECT_EQ(empty.bytes_held, 0u);
  {
    std::vector<Buffer> blocks;
    for (std::size_t size : {std::size_t{100}, std::size_t{4096}, std::size_t{3} << 20})
      blocks.push_back(pool().allocate(queue(), size));
    const auto full = stats();
    EXPECT_EQ(full.bytes_in_use, 512u + 4096u + (std::size_t{3} << 20));
    EXPECT_GE(full.peak_bytes_in_use, full.bytes_in_use);
    EXPECT_GE(full.bytes_held, full.bytes_in_use);
    EXPECT_GE(full.splits, 1u) << "the small blocks share a segment";
    pool().free_all_blocks();  // all in use: nothing to give back
    EXPECT_EQ(stats().bytes_held, full.bytes_held);
  }
  const auto released = stats();
  EXPECT_EQ(released.bytes_in_use, 0u);
  EXPECT_GT(released.bytes_held, 0u) << "cached";
  EXPECT_GE(released.peak_bytes_in_use, 512u + 4096u + (std::size_t{3} << 20));
  pool().free_all_blocks();
  const auto freed = stats();
  EXPECT_EQ(freed.bytes_held, 0u);
  EXPECT_GE(freed.segments_freed, released.segments_freed + 2);
  // The context's totals add up the devices' (one here).
  EXPECT_EQ(pool().stats().segments_freed, freed.segments_freed);
}

TEST_P(MemoryPoolTest, ALimitBoundsWhatThePoolHolds) {
  pool().free_all_blocks();
  const auto old_limit = pool().limit();
  pool().set_limit(std::size_t{4} << 20);
  EXPECT_EQ(pool().limit(), std::optional<std::size_t>(std::size_t{4} << 20));
  {
    const auto small = pool().allocate(queue(), 1000);  // a 2 MiB segment
    try {
      pool().allocate(queue(), std::size_t{3} << 20);  // 3 MiB more: over the limit
      ADD_FAILURE() << "no OutOfMemoryError";
    } catch (const OutOfMemoryError& e) {
      EXPECT_NE(std::string(e.what()).find("limit"), std::string::npos) << e.what();
    }
  }
  // With the small block released, its cached segment is given back to make room.
  const auto big = pool().allocate(queue(), std::size_t{3} << 20);
  EXPECT_LE(stats().bytes_held, std::size_t{4} << 20);
  pool().set_limit(old_limit);
}

TEST_P(MemoryPoolTest, UserAllocatorsAndVirtualBuffersBypassThePool) {
  const auto before = stats();
  std::size_t calls = 0;
  const Allocator mine = [&](const BoundDevice& d, std::size_t size) {
    ++calls;
    return Buffer::allocate(d, size);
  };
  const auto array = Array::empty(queue(), {n}, DType::int32(), std::nullopt, std::nullopt, mine);
  const auto plain = Buffer::allocate(device(), bytes);
  TrivialManager manager(device());
  const auto managed =
      Array::empty(queue(), {n}, DType::int32(), std::nullopt, std::nullopt, manager.allocator());
  EXPECT_EQ(manager.statistics().real_num, 1u);
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(stats().bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(stats().misses, before.misses);
}

TEST_P(MemoryPoolTest, ExpressionResultsReuseTheWarmPool) {
  std::vector<float> values(4096);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const auto x = Array::from_host(queue(), HostArray::from_values(values));
  { const auto warm = evaluate(queue(), x * 2.0f + 1.0f); }
  const auto before = stats();
  for (int i = 0; i < 10; ++i) {
    const auto y = evaluate(queue(), x * 2.0f + 1.0f);
    if (i == 9) {
      const auto host = y.get(queue());
      EXPECT_EQ(host.to_vector<float>()[100], 201.0f);
    }
  }
  EXPECT_EQ(stats().misses, before.misses) << "no device allocation on a warm pool";
  EXPECT_EQ(stats().hits, before.hits + 10);
}

TEST_P(MemoryPoolTest, ThreadsAllocateAndReleaseAtOnce) {
  const auto before = stats();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const Queue mine(device());
      for (int i = 0; i < 50; ++i) {
        const auto block = pool().allocate(mine, 512 * std::size_t(1 + (i + t) % 5));
        if (i % 10 == 0) fill(mine, block.get_sub_region(0, 512), t);
      }
      mine.synchronize();
    });
  }
  for (auto& thread : threads) thread.join();
  const auto after = stats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.hits + after.misses, before.hits + before.misses + 200);
}

TEST_P(MemoryPoolTest, OffInTheEnvironmentGivesFreshAllocations) {
  const char* old = std::getenv("PLINTH_MEMORY_POOL");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("PLINTH_MEMORY_POOL", "off", 1);
  const Context off = Context::from_devices({device().device()});
  if (saved) {
    setenv("PLINTH_MEMORY_POOL", saved->c_str(), 1);
  } else {
    unsetenv("PLINTH_MEMORY_POOL");
  }
  const auto off_pool = MemoryPool::of(off);
  EXPECT_FALSE(off_pool.enabled());
  const Queue q(off.devices()[0]);
  for (int i = 0; i < 3; ++i) {
    const auto array = Array::empty(q, {n}, DType::int32());
    array.set(q, HostArray::from_values(std::vector<int>(n, i)), true);
    expect_all(array.get(q).to_vector<int>(), i, "an array of the pool that is off");
  }
  EXPECT_EQ(off_pool.stats().bytes_held, 0u);
  EXPECT_EQ(off_pool.stats().misses, 0u);
  // Contexts made later have their pool again.
  EXPECT_TRUE(MemoryPool::of(Context::from_devices({device().device()})).enabled() ||
              (saved && *saved == "off"));
}

PLINTH_INSTANTIATE_DEVICE_TEST(MemoryPoolTest);

using MemoryPoolDevicesTest = MultiDeviceTest;

// Each device has its pool; a block of one device that a queue of another uses (a copy
// between devices) is claimed by that queue too.
TEST_P(MemoryPoolDevicesTest, EachDeviceHasItsPoolAndOtherDevicesQueuesClaim) {
  const auto devices = context().devices();
  const auto pool = MemoryPool::of(context());
  const Queue first(devices[0]);
  const Queue second(devices[1]);
  const auto before0 = pool.stats(devices[0]);
  const auto before1 = pool.stats(devices[1]);
  const std::vector<int> values(n, 5);
  {
    const auto there = Array::empty(second, {n}, DType::int32());
    EXPECT_EQ(pool.stats(devices[1]).bytes_in_use, before1.bytes_in_use + 512);
    EXPECT_EQ(pool.stats(devices[0]).bytes_in_use, before0.bytes_in_use);
    const auto here = Array::empty(first, {n}, DType::int32());
    here.set(first, HostArray::from_values(values), true);
    there.set(second, here);  // `here` is read in `second`'s queue
    EXPECT_EQ(there.get(second).to_vector<int>(), values);
  }
  EXPECT_EQ(pool.stats().bytes_in_use, before0.bytes_in_use + before1.bytes_in_use);
  const auto waits = pool.stats(devices[0]).queue_waits;
  const auto again = pool.allocate(first, n * sizeof(int));
  EXPECT_EQ(pool.stats(devices[0]).queue_waits, waits + 1) << "first waits for second's copy";
  // A device of another context is refused.
  const Context other = Context::from_devices({devices[0].device()});
  EXPECT_NE(logic_error_message([&] { (void)pool.stats(other.devices()[0]); }).find("context"),
            std::string::npos);
}

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(MemoryPoolDevicesTest);

}  // namespace
}  // namespace memory_pool_test
}  // namespace plinth::conformance
