// When dropped images and samplers are destroyed (retirements.hpp), without a driver: a
// handle waits for every queue alive when it was retired (of its device, or of every device)
// to be idle or gone since, never for queues made later, and whatever is left goes with the
// bookkeeping; from several threads at once, each handle is destroyed exactly once.

#include "retirements.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace plinth::level_zero {
namespace retirements_test {
namespace {

// The handles the destroy function below was called with, in order.
std::mutex destroyed_mutex;
std::vector<std::uintptr_t> destroyed;

void record(void* handle) noexcept {
  const std::lock_guard lock(destroyed_mutex);
  destroyed.push_back(reinterpret_cast<std::uintptr_t>(handle));
}

void* handle(std::uintptr_t value) { return reinterpret_cast<void*>(value); }

// Clears the record before each test.
class LevelZeroRetirements : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::lock_guard lock(destroyed_mutex);
    destroyed.clear();
  }
  static std::vector<std::uintptr_t> so_far() {
    const std::lock_guard lock(destroyed_mutex);
    return destroyed;
  }
};

TEST_F(LevelZeroRetirements, WithoutQueuesAHandleGoesAtOnce) {
  Retirements retirements;
  retirements.retire(handle(1), record, 0);
  retirements.retire(handle(2), record, std::nullopt);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{1, 2}));
  EXPECT_EQ(retirements.pending(), 0u);
}

TEST_F(LevelZeroRetirements, AnImageWaitsForEveryQueueOfItsDevice) {
  Retirements retirements;
  const auto a = retirements.add_queue(0);
  const auto b = retirements.add_queue(0);
  const auto other = retirements.add_queue(1);
  retirements.retire(handle(7), record, 0);
  EXPECT_EQ(retirements.pending(), 1u);
  retirements.queue_idle(other);  // another device's queue never saw the image
  retirements.queue_idle(a);
  retirements.queue_idle(a);
  EXPECT_TRUE(so_far().empty());
  retirements.queue_idle(b);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{7}));
  EXPECT_EQ(retirements.pending(), 0u);
}

TEST_F(LevelZeroRetirements, ASamplerWaitsForTheQueuesOfEveryDevice) {
  Retirements retirements;
  const auto a = retirements.add_queue(0);
  const auto b = retirements.add_queue(1);
  retirements.retire(handle(3), record, std::nullopt);
  retirements.queue_idle(a);
  EXPECT_TRUE(so_far().empty());
  retirements.queue_idle(b);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{3}));
}

TEST_F(LevelZeroRetirements, OnlyAnIdleAfterTheRetirementCounts) {
  Retirements retirements;
  const auto a = retirements.add_queue(0);
  retirements.queue_idle(a);
  retirements.retire(handle(4), record, 0);
  EXPECT_TRUE(so_far().empty()) << "the queue may have been given work since its idle";
  retirements.queue_idle(a);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{4}));
}

TEST_F(LevelZeroRetirements, QueuesMadeLaterAreNotWaitedFor) {
  Retirements retirements;
  const auto a = retirements.add_queue(0);
  retirements.retire(handle(5), record, 0);
  const auto later = retirements.add_queue(0);
  retirements.queue_idle(a);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{5}));
  retirements.remove_queue(later);
  EXPECT_EQ(retirements.queue_count(), 1u);
}

TEST_F(LevelZeroRetirements, AQueueThatGoesCountsAsIdleAndIsForgotten) {
  Retirements retirements;
  const auto a = retirements.add_queue(0);
  const auto b = retirements.add_queue(0);
  retirements.retire(handle(6), record, 0);
  retirements.remove_queue(a);
  EXPECT_TRUE(so_far().empty());
  retirements.remove_queue(b);
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{6}));
  EXPECT_EQ(retirements.queue_count(), 0u);
  retirements.retire(handle(8), record, 0);  // no queue left: at once
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{6, 8}));
}

TEST_F(LevelZeroRetirements, HandlesGoInTheOrderTheirQueuesAllowAndTheRestWithTheBook) {
  auto keep = std::make_shared<int>(0);
  {
    Retirements retirements(keep);
    const auto a = retirements.add_queue(0);
    const auto b = retirements.add_queue(1);
    retirements.retire(handle(10), record, 0);
    retirements.retire(handle(11), record, 1);
    retirements.retire(handle(12), record, std::nullopt);
    retirements.queue_idle(b);
    EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{11}));
    EXPECT_EQ(retirements.pending(), 2u);
    EXPECT_EQ(keep.use_count(), 2);  // held while handles may need it
    (void)a;                         // never idle: what waits for it goes with the book
  }
  EXPECT_EQ(so_far(), (std::vector<std::uintptr_t>{11, 10, 12}));
  EXPECT_EQ(keep.use_count(), 1);
}

TEST_F(LevelZeroRetirements, ManyThreadsDestroyEachHandleOnce) {
  constexpr int threads = 4;
  constexpr int per_thread = 500;
  {
    Retirements retirements;
    std::vector<std::thread> workers;
    std::atomic<int> next{1};
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        // Each thread has its queue, retires handles of its device or all, and idles.
        const auto queue = retirements.add_queue(static_cast<std::size_t>(t % 2));
        for (int i = 0; i < per_thread; ++i) {
          const auto value = static_cast<std::uintptr_t>(next.fetch_add(1));
          retirements.retire(handle(value), record,
                             i % 3 == 0 ? std::nullopt : std::optional<std::size_t>(t % 2));
          if (i % 7 == 0) retirements.queue_idle(queue);
        }
        retirements.remove_queue(queue);
      });
    }
    for (auto& worker : workers) worker.join();
    EXPECT_EQ(retirements.queue_count(), 0u);
  }
  auto seen = so_far();
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(threads * per_thread));
  std::sort(seen.begin(), seen.end());
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i + 1);
}

}  // namespace
}  // namespace retirements_test
}  // namespace plinth::level_zero
