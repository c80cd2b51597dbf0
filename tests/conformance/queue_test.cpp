// Queues and events: synchronisation, ordering between queues, timing.

#include "fixture.hpp"

namespace plinth::conformance {
namespace queue_test {
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

// Before: Queue::wait_for and elapsed_ms handed any Event to the backend, which cast it to its
// own type: an event of another context (or API) was undefined behaviour.
TEST_P(QueueTest, EventsOfAnotherContextAreRefused) {
  const auto other_context = Context::from_devices({GetParam()});
  const Queue other_queue(other_context.devices()[0]);
  const auto foreign = other_queue.record_event();
  const auto mine = queue().record_event();
  EXPECT_EQ(foreign.device(), other_context.devices()[0]);
  EXPECT_EQ(mine.device(), device());
  for (const auto& text : {logic_error_message([&] { queue().wait_for(foreign); }),
                           logic_error_message([&] { (void)elapsed_ms(mine, foreign); }),
                           logic_error_message([&] { (void)elapsed_ms(foreign, mine); })}) {
    EXPECT_NE(text.find("belong to different contexts"), std::string::npos) << text;
  }
  // Both are still usable.
  other_queue.wait_for(foreign);
  queue().wait_for(mine);
  EXPECT_GE(elapsed_ms(mine, queue().record_event()), 0.0);
  queue().synchronize();
  other_queue.synchronize();
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
}  // namespace queue_test
}  // namespace plinth::conformance
