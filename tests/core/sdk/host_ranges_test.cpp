// HostRanges (<plinth/backend/host_ranges.hpp>): the OpenCL backend's record of its
// page-locked allocations, which its queues ask whether a transfer can skip staging.

#include <plinth/backend/host_ranges.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace plinth::backend {
namespace host_ranges_test {
namespace {

TEST(HostRanges, ContainsOnlyWholeRangesInsideOneAllocation) {
  std::array<std::byte, 300> memory{};
  HostRanges<int> ranges;
  EXPECT_FALSE(ranges.contains(memory.data(), 1));  // empty: no lock taken
  ranges.insert(memory.data() + 100, 100, 1);
  ranges.insert(memory.data() + 200, 50, 2);  // adjacent
  EXPECT_EQ(ranges.size(), 2U);

  EXPECT_TRUE(ranges.contains(memory.data() + 100, 100));
  EXPECT_TRUE(ranges.contains(memory.data() + 150, 50));
  EXPECT_TRUE(ranges.contains(memory.data() + 199, 1));
  EXPECT_TRUE(ranges.contains(memory.data() + 120, 0));
  EXPECT_TRUE(ranges.contains(memory.data() + 200, 50));
  EXPECT_FALSE(ranges.contains(memory.data() + 99, 2));    // starts before
  EXPECT_FALSE(ranges.contains(memory.data() + 150, 51));  // spans two allocations
  EXPECT_FALSE(ranges.contains(memory.data() + 240, 11));  // ends after
  EXPECT_FALSE(ranges.contains(memory.data() + 250, 0));   // one past the end
  EXPECT_FALSE(ranges.contains(memory.data(), 10));
  EXPECT_FALSE(ranges.contains(nullptr, 0));
}

TEST(HostRanges, RefusesEmptyAndOverlappingRanges) {
  std::array<std::byte, 300> memory{};
  HostRanges<int> ranges;
  ranges.insert(memory.data() + 100, 100, 1);
  EXPECT_THROW(ranges.insert(memory.data() + 10, 0, 2), LogicError);
  EXPECT_THROW(ranges.insert(memory.data() + 50, 51, 2), LogicError);   // into its start
  EXPECT_THROW(ranges.insert(memory.data() + 199, 10, 2), LogicError);  // from its end
  EXPECT_THROW(ranges.insert(memory.data() + 120, 10, 2), LogicError);  // inside
  EXPECT_THROW(ranges.insert(memory.data() + 50, 200, 2), LogicError);  // around
  ranges.insert(memory.data() + 50, 50, 3);                             // just before
  EXPECT_EQ(ranges.size(), 2U);
}

TEST(HostRanges, EraseReturnsTheValueOfTheRangeStartingThere) {
  std::array<std::byte, 300> memory{};
  HostRanges<int> ranges;
  ranges.insert(memory.data() + 100, 100, 7);
  EXPECT_EQ(ranges.erase(memory.data() + 101), std::nullopt);  // not a start
  EXPECT_EQ(ranges.erase(memory.data() + 100), 7);
  EXPECT_EQ(ranges.erase(memory.data() + 100), std::nullopt);
  EXPECT_EQ(ranges.size(), 0U);
  EXPECT_FALSE(ranges.contains(memory.data() + 100, 1));
  ranges.insert(memory.data() + 100, 100, 8);  // the same range again
  EXPECT_TRUE(ranges.contains(memory.data() + 100, 1));
}

TEST(HostRanges, ManyThreadsAtOnce) {
  constexpr std::size_t threads = 4;
  constexpr std::size_t per_thread = 64;
  std::vector<std::byte> memory(threads * per_thread * 16);
  HostRanges<std::size_t> ranges;
  std::atomic<bool> wrong{false};
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        for (std::size_t i = 0; i < per_thread; ++i) {
          const std::size_t slot = t * per_thread + i;
          ranges.insert(memory.data() + slot * 16, 16, slot);
          if (!ranges.contains(memory.data() + slot * 16 + 4, 12)) wrong = true;
        }
        for (std::size_t i = 0; i < per_thread; ++i) {
          const std::size_t slot = t * per_thread + i;
          if (ranges.erase(memory.data() + slot * 16) != slot) wrong = true;
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_FALSE(wrong);
  EXPECT_EQ(ranges.size(), 0U);
}

}  // namespace
}  // namespace host_ranges_test
}  // namespace plinth::backend
