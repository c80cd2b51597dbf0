// Queues and events: synchronisation, ordering between queues, timing.

#include "fixture.hpp"

namespace plinth::conformance {
namespace {

using QueueTest = DeviceTest;

TEST_P(QueueTest, EventsTimeWork) {
  auto buffer = Buffer::allocate(device(), 16u << 20);
  const auto data = pattern(buffer.size());
  const auto start = queue().record_event();
  buffer.set(queue(), data);
  const auto end = queue().record_event();
  end.wait();
  const double ms = elapsed_ms(start, end);
  EXPECT_GE(ms, 0.0);
  EXPECT_LT(ms, 60'000.0);
  queue().synchronize();
}

TEST_P(QueueTest, SecondQueueWaitsForEvent) {
  Queue other(device());
  const std::size_t size = 8u << 20;
  const auto data = pattern(size, 1);
  auto a = Buffer::allocate(device(), size);
  auto b = Buffer::allocate(device(), size);
  a.set(queue(), data);
  const auto written = queue().record_event();
  other.wait_for(written);
  b.set(other, a);
  std::vector<std::byte> back(size);
  b.get(other, back);
  EXPECT_EQ(back, data);
}

TEST_P(QueueTest, QueuesAreHandles) {
  Queue copy = queue();
  EXPECT_EQ(copy, queue());
  EXPECT_EQ(copy.device(), device());
  EXPECT_NE(queue().native_handle(), 0u);
  MultiQueue multi({queue()});
  EXPECT_EQ(multi.queues().size(), 1u);
  EXPECT_EQ(multi[device()], queue());
  EXPECT_THROW(MultiQueue({queue(), Queue(device())}), LogicError);
  EXPECT_THROW(MultiQueue(std::vector<Queue>{}), LogicError);
  multi.synchronize();
}

PLINTH_INSTANTIATE_DEVICE_TEST(QueueTest);

}  // namespace
}  // namespace plinth::conformance
